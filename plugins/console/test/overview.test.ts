// The Overview in real Chromium and its API: readiness and version for
// everyone, the tenant's usage this week (admin and staff; GET
// /api/admin/usage), recent events (admin), the job queues and dead letters
// (the super-admin; GET /api/v1/queues).
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { queueSummary } from '../../../core/http/queues.ts';
import { weekStart } from '../services/usage.ts';
import { axeViolations, browserMissing, consoleFixture, openConsole, screenshot } from './helpers.ts';

t.test('queue summary: states by queue, dead letters counted from <task>.dead queues', async (t) => {
  const summary = queueSummary([
    { queue: 'b.task', state: 'queued', count: 2 }, { queue: 'b.task', state: 'failed', count: 1 },
    { queue: 'a.fast', state: 'deferred', count: 4 }, { queue: 'a.fast', state: 'active', count: 1 },
    { queue: 'b.task.dead', state: 'queued', count: 3 }, { queue: 'b.task.dead', state: 'failed', count: 2 },
  ]);
  t.same(summary.items.map((q) => q.queue), ['a.fast', 'b.task', 'b.task.dead']);
  t.same(summary.items[2], { queue: 'b.task.dead', queued: 3, active: 0, deferred: 0, failed: 2, dead_letter: true });
  t.same(summary.totals, { queued: 5, active: 1, deferred: 4, failed: 3, dead_letters: 5 });
});

t.test('the week starts on Monday 00:00 UTC', async (t) => {
  t.equal(weekStart(new Date('2026-11-29T18:00:00Z')).toISOString(), '2026-11-23T00:00:00.000Z', 'a Sunday');
  t.equal(weekStart(new Date('2026-11-23T00:00:00Z')).toISOString(), '2026-11-23T00:00:00.000Z', 'Monday midnight');
});

const missing = browserMissing();
if (missing) {
  t.test(`console browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  const f = await consoleFixture(t);
  const as = (token: string, url: string, tenant = 'acme', method = 'GET', payload?: unknown) => f.tp.request({ method, url, token, tenant, payload });

  t.test('GET /api/v1/queues: the super-admin only', async (t) => {
    const queues = await f.tp.request({ url: '/api/v1/queues', token: f.tp.adminToken });
    t.equal(queues.status, 200);
    t.ok(Array.isArray(queues.body.items) && queues.body.items.length > 0, 'the queues are listed');
    t.ok(queues.body.items.some((q: { dead_letter: boolean }) => q.dead_letter), 'dead-letter queues among them');
    t.type(queues.body.totals.dead_letters, 'number');
    t.equal((await as(f.tokens.admin, '/api/v1/queues')).status, 403, 'a tenant admin: queues serve every tenant');
    t.equal((await f.tp.request({ url: '/api/v1/queues' })).status, 401);
  });

  t.test('GET /api/admin/usage: admin and staff, this tenant\'s rows of the week', async (t) => {
    const session = await as(f.tokens.admin, '/api/sessions', 'acme', 'POST', {});
    t.equal(session.status, 201, JSON.stringify(session.body));
    const usage = await as(f.tokens.staff, '/api/admin/usage');
    t.equal(usage.status, 200);
    t.same(usage.body.counts, { chat_sessions: 1, documents: 0, occurrences: 0 });
    t.equal(new Date(usage.body.since).toISOString(), weekStart(new Date()).toISOString());
    const other = await as(f.tokens.multi, '/api/admin/usage', 'globex');
    t.equal(other.status, 403, 'a plain member of globex');
    t.equal(other.body.code, 'ROLE_REQUIRED');
    const member = await as(f.tokens.member, '/api/admin/usage');
    t.equal(member.status, 403);
    const globex = await f.tp.request({ url: '/api/admin/usage', token: f.tp.adminToken, tenant: 'globex' });
    t.same(globex.body.counts, { chat_sessions: 0, documents: 0, occurrences: 0 }, 'another tenant sees none of acme\'s');
  });

  t.test('the Overview as the tenant admin: readiness, version, usage, recent events', async (t) => {
    const emitted = await as(f.tokens.admin, '/api/admin/triggers/events/emit', 'acme', 'POST', { type: 'console.checked', data: { ok: true } });
    t.equal(emitted.status, 201, JSON.stringify(emitted.body));
    await until(async () => (await as(f.tokens.admin, '/api/admin/triggers/events/recent')).body.items?.some((e: { type: string }) => e.type === 'console.checked'), 'the event in the stream');
    const page = await openConsole(f, 'admin');
    await page.getByRole('table', { name: 'Recent events' }).getByRole('cell', { name: 'console.checked' }).waitFor();
    await page.getByText('Ready', { exact: true }).waitFor();
    t.match(await page.getByRole('term').filter({ hasText: 'Version' }).locator('xpath=following-sibling::dd[1]').innerText(), /^\d+\.\d+\.\d+/);
    const sessions = page.getByRole('heading', { name: 'Chat sessions' }).locator('xpath=following-sibling::p[1]');
    t.equal(await sessions.innerText(), '1', 'the chat session of this week');
    t.equal(await page.getByRole('heading', { name: 'Job queues' }).count(), 0, 'queues are the super-admin\'s');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await t.resolves(page.getByRole('status').filter({ hasText: 'Overview refreshed' }).waitFor({ state: 'attached' }), 'a refresh is announced');
    t.same(await page.getByRole('heading', { level: 1 }).allInnerTexts(), ['Overview']);
    t.same(await axeViolations(page), []);
    t.same(page.errors, []);
    await screenshot(page, 'overview-events');
    await page.context().close();
  });

  t.test('the Overview as the super-admin: every tenant in the picker, the job queues and dead letters', async (t) => {
    const page = await openConsole(f, 'super-admin');
    t.same(await page.getByRole('combobox', { name: 'Tenant' }).locator('option').allInnerTexts(), ['acme', 'globex']);
    await page.getByRole('heading', { name: 'Job queues' }).waitFor();
    t.ok(await page.getByRole('heading', { name: 'Dead letters' }).count() >= 1, 'the dead letters figure');
    t.match(await page.getByRole('heading', { name: 'Dead letters' }).first().locator('xpath=following-sibling::p[1]').innerText(), /^\d+$/);
    t.same(await page.getByRole('heading', { level: 1 }).allInnerTexts(), ['Overview']);
    t.same(await axeViolations(page), []);
    t.same(page.errors, []);
    await screenshot(page, 'overview-super-admin');
    await page.context().close();
  });
}
