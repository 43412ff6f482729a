// The time windows of signed resume, driven by the service's injectable
// clock instead of by sleeping: the 10-minute idempotency window, the
// per-minute rate budget, and the pruning of expired state. The service runs
// against the real database and the real workflows plugin of a booted platform.
import t from 'tap';
import { tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';
import { createResumeService } from '../services/resume.ts';
import { sql } from 'kysely';
import { PRUNE_TASK, pruneHandler, pruneTenant } from '../tasks/webhooks.prune.ts';
import { signBody } from '../signing/signing.ts';
import { execution, signingSecretOf, startWebhooksPlatform, waitingExecution } from './helpers.ts';

// A fixed instant 5 s into a minute, so that tests know where windows start.
const T0 = Date.parse('2031-03-04T05:06:05Z');

function drivenService(tp: TestPlatform, clock: { now: number }, rateLimitPerMinute = 60) {
  return createResumeService(tp.platform.core, {
    rateLimitPerMinute,
    workflows: () => tp.platform.server.plugins.workflows.api,
    now: () => clock.now,
  });
}

/**
 * A request signed with `secret`, timestamped by the driven clock. Unless the
 * body has its own event_data, the id goes into it: distinct requests have
 * distinct bodies, hence distinct signatures (a repeated one is a replay).
 */
function signed(secret: string, clockMs: number, body: Record<string, unknown>, id: string) {
  const raw = Buffer.from(JSON.stringify({ event_data: { request: id }, ...body }));
  return {
    eventType: 'ping',
    body: raw,
    headers: {
      'content-type': 'application/json',
      'x-webhook-signature': signBody(secret, raw), 'x-webhook-timestamp': String(Math.floor(clockMs / 1000)), 'x-webhook-id': id,
    },
  };
}

async function outcome(promise: Promise<unknown>): Promise<number | string> {
  try {
    await promise;
    return 202;
  } catch (err) {
    const boom = err as { output?: { statusCode: number; payload: { message: string } } };
    if (!boom.output) throw err;
    return `${boom.output.statusCode} ${boom.output.payload.message}`;
  }
}

t.test('replay: the same id within 10 minutes is a duplicate, after them it is accepted', async (t) => {
  const tp = await startWebhooksPlatform(t, { listen: true });
  const tenant = await tenantWithAdmin(tp, 'clk-idem');
  const secret = await signingSecretOf(tp, tenant.token);
  const executionId = await waitingExecution(tp, tenant.token, { eventType: 'never.sent' });
  const clock = { now: T0 };
  const service = drivenService(tp, clock);
  const body = { tenant_id: 'clk-idem', workflow_id: executionId };
  // Each send is another body (another signature) under the same id.
  const send = (n: number) => outcome(service.resume(signed(secret, clock.now, { ...body, event_data: { n } }, 'same-id')));

  t.equal(await send(1), 202, 'first delivery');
  clock.now = T0 + 60_000;
  t.equal(await send(2), '409 Duplicate webhook', 'a minute later');
  clock.now = T0 + 600_000 - 1;
  t.equal(await send(3), '409 Duplicate webhook', 'a millisecond before 10 minutes');
  clock.now = T0 + 600_000;
  t.equal(await send(4), 202, 'at 10 minutes the id is free again');
  clock.now = T0 + 600_000 + 5_000;
  t.equal(await send(5), '409 Duplicate webhook', 'and the new delivery starts a new window');
  t.equal((await execution(tp, tenant.token, executionId)).buffered_signals, 2, 'two signals were delivered');
});

t.test('replayed signature: refused for the freshness window plus 24 hours, whatever the id and timestamp', async (t) => {
  const tp = await startWebhooksPlatform(t, { listen: true });
  const tenant = await tenantWithAdmin(tp, 'clk-replay');
  const secret = await signingSecretOf(tp, tenant.token);
  const executionId = await waitingExecution(tp, tenant.token, { eventType: 'never.sent' });
  const clock = { now: T0 };
  const service = drivenService(tp, clock);
  const body = { tenant_id: 'clk-replay', workflow_id: executionId, event_data: { approved: true } };
  // A captured request: the same body (hence signature), sent with a fresh id and timestamp.
  const replay = (id: string) => service.resume(signed(secret, clock.now, body, id));

  t.equal(await outcome(replay('original')), 202, 'the original request');
  const codeOf = async (id: string) => replay(id).then(() => 202, (err: { output: { statusCode: number; payload: { code: string } } }) =>
    `${err.output.statusCode} ${err.output.payload.code}`);
  clock.now = T0 + 1_000;
  t.equal(await codeOf('fresh-1'), '409 WEBHOOK_SIGNATURE_REPLAYED', 'a second later, with a new id');
  clock.now = T0 + 60 * 60_000;
  t.equal(await codeOf('fresh-2'), '409 WEBHOOK_SIGNATURE_REPLAYED', 'an hour later, past the id window');
  clock.now = T0 + (24 * 3600 + 300) * 1000 - 1;
  t.equal(await codeOf('fresh-3'), '409 WEBHOOK_SIGNATURE_REPLAYED', 'until 24 h past the freshness window');
  t.equal((await execution(tp, tenant.token, executionId)).buffered_signals, 1, 'the replays delivered nothing');

  const pruned = await pruneTenant(tp.platform.core, 'clk-replay', clock.now);
  t.equal(pruned.signatures, 0, 'the prune task keeps a record that still blocks');
  clock.now = T0 + (24 * 3600 + 300) * 1000;
  t.equal(await pruneTenant(tp.platform.core, 'clk-replay', clock.now).then((p) => p.signatures), 1, 'and deletes it once it has expired');
});

t.test('rate limit: 60 per tenant per calendar minute; a refused request keeps neither its id nor budget', async (t) => {
  const tp = await startWebhooksPlatform(t, { listen: true });
  const tenant = await tenantWithAdmin(tp, 'clk-rate');
  const secret = await signingSecretOf(tp, tenant.token);
  const executionId = await waitingExecution(tp, tenant.token, { eventType: 'never.sent' });
  const clock = { now: T0 };
  const service = drivenService(tp, clock);
  const body = { tenant_id: 'clk-rate', workflow_id: executionId };
  const send = (id: string) => outcome(service.resume(signed(secret, clock.now, body, id)));

  for (let i = 0; i < 60; i++) {
    clock.now = T0 + i * 900; // 60 requests spread over 54 s of the same minute
    const result = await send(`m1-${i}`);
    if (result !== 202) t.fail(`request ${i + 1} was refused: ${result}`);
  }
  clock.now = T0 + 54_500;
  let refusal: unknown;
  await service.resume(signed(secret, clock.now, body, 'm1-60')).catch((err: unknown) => (refusal = err));
  const boom = refusal as { output: { statusCode: number; payload: { message: string }; headers: Record<string, string> } };
  t.equal(boom.output.statusCode, 429, 'the 61st request of the minute');
  t.equal(boom.output.payload.message, 'Rate limit exceeded');
  t.equal(boom.output.headers['Retry-After'], '1', 'Retry-After: the seconds left in the minute (0.5 s, rounded up)');

  clock.now = T0 + 55_000; // 05:07:00, a new window
  t.equal(await send('m1-60'), 202, 'the next minute, the refused id is accepted');
  for (let i = 1; i < 60; i++) {
    const result = await send(`m2-${i}`);
    if (result !== 202) t.fail(`request ${i + 1} of the second minute was refused: ${result}`);
  }
  t.equal(await send('m2-60'), '429 Rate limit exceeded', 'and the new window holds 60 too');
  t.equal((await execution(tp, tenant.token, executionId)).buffered_signals, 120, 'every accepted request delivered its signal');

  const limited = drivenService(tp, clock, 1);
  clock.now = T0 + 120_000;
  t.equal(await outcome(limited.resume(signed(secret, clock.now, body, 'opt-1'))), 202, 'the limit is the plugin option rateLimitPerMinute');
  t.equal(await outcome(limited.resume(signed(secret, clock.now, body, 'opt-2'))), '429 Rate limit exceeded');
});

t.test('concurrent requests of one tenant never exceed the budget', async (t) => {
  const tp = await startWebhooksPlatform(t, { listen: true });
  const tenant = await tenantWithAdmin(tp, 'clk-race');
  const secret = await signingSecretOf(tp, tenant.token);
  const executionId = await waitingExecution(tp, tenant.token, { eventType: 'never.sent' });
  const clock = { now: T0 };
  const service = drivenService(tp, clock, 10);
  const body = { tenant_id: 'clk-race', workflow_id: executionId };
  const results = await Promise.all(Array.from({ length: 30 }, (_, i) => outcome(service.resume(signed(secret, clock.now, body, `c-${i}`)))));
  t.equal(results.filter((r) => r === 202).length, 10, '10 of 30 concurrent requests are accepted');
  t.equal(results.filter((r) => r === '429 Rate limit exceeded').length, 20, 'the others are refused');
  const twice = await Promise.all([1, 2, 3].map(() => outcome(drivenService(tp, { now: T0 + 60_000 }).resume(signed(secret, T0 + 60_000, body, 'dup')))));
  t.same(twice.sort(), [202, '409 Duplicate webhook', '409 Duplicate webhook'], 'one of three concurrent requests with one id wins');
  const replayAt = T0 + 120_000;
  const replayed = { ...body, event_data: { captured: true } };
  const replays = await Promise.all([1, 2, 3].map((i) => outcome(drivenService(tp, { now: replayAt }).resume(signed(secret, replayAt, replayed, `replay-${i}`)))));
  t.same(replays.sort(), [202, '409 Duplicate webhook', '409 Duplicate webhook'], 'one of three concurrent requests with one signature (three ids) wins');
});

t.test('pruning removes expired ids and past windows, and keeps the rest', async (t) => {
  const tp = await startWebhooksPlatform(t, { listen: true });
  const tenant = await tenantWithAdmin(tp, 'clk-prune');
  const secret = await signingSecretOf(tp, tenant.token);
  const executionId = await waitingExecution(tp, tenant.token, { eventType: 'never.sent' });
  const clock = { now: T0 };
  const service = drivenService(tp, clock);
  const body = { tenant_id: 'clk-prune', workflow_id: executionId };
  t.equal(await outcome(service.resume(signed(secret, clock.now, body, 'old'))), 202);
  clock.now = T0 + 5 * 60_000;
  t.equal(await outcome(service.resume(signed(secret, clock.now, body, 'recent'))), 202);

  const pruned = await pruneTenant(tp.platform.core, 'clk-prune', T0 + 11 * 60_000);
  t.same(pruned, { deliveries: 1, signatures: 0, rateWindows: 2 }, 'one expired id and two past windows (signatures are kept 24 h)');
  const left = await tp.platform.core.withTenant('clk-prune', async (trx) => ({
    ids: (await trx.selectFrom('webhook_deliveries').select('webhook_id').execute()).map((r) => r.webhook_id),
    windows: (await trx.selectFrom('webhook_rate').select('count').execute()).length,
  }));
  t.same(left, { ids: ['recent'], windows: 0 }, 'the id still inside its window stays');

  const all = await pruneHandler(tp.platform.core, () => T0 + 16 * 60_000)();
  t.match(all, { deliveries: 1, rateWindows: 0 }, 'the scheduled task visits every tenant');
  t.ok(all.tenants >= 1);
  const schedule = await sql<{ cron: string }>`SELECT cron FROM pgboss.schedule WHERE name = ${PRUNE_TASK}`.execute(tp.platform.core.db);
  t.same(schedule.rows, [{ cron: '*/10 * * * *' }], 'and is scheduled every 10 minutes');
});
