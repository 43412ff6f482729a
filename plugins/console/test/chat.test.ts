// The Chat section in real Chromium, as acme's plain member: the playground is
// the embeddable widget (/embed/v1/platform-chat.ce.js, under the console's
// CSP) on the tenant's default client; with no model configured the offline
// responder quotes an uploaded document, the answer appears in the widget and
// its citations are listed beside it, verified. axe and a screenshot. Rated
// through REST, the conversation is listed for acme's admin below the
// playground with its feedback; a member sees no conversations.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { until } from 'agent-platform/sdk/testing';
import { multipart } from '../../ingestion/test/helpers.ts';
import { axeViolations, browserMissing, consoleFixture, openConsole, screenshot } from './helpers.ts';

const DOC = 'Harbour rules. Boats moored at the north pier must show a green lantern after sunset. The harbour master inspects the lanterns every Tuesday.\n';

const missing = browserMissing();
if (missing) {
  t.test(`console browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  if (!existsSync(path.resolve('plugins/embed/widget/dist/platform-chat.ce.js'))) {
    execFileSync(process.execPath, ['scripts/build-widget.ts', '--quiet'], { stdio: 'inherit' });
  }
  const f = await consoleFixture(t, { LLM_BASE_URL: '' });
  const acme = { 'x-tenant-id': 'acme' };

  t.test('a question in the playground: the answer, and its citations with their verification', async (t) => {
    const collection = await f.tp.request({ method: 'POST', url: '/api/admin/collections', token: f.tokens.admin, headers: acme, payload: { name: 'Harbour' } });
    t.equal(collection.status, 201);
    const { payload, headers } = multipart([{ name: 'file', filename: 'harbour.txt', content: DOC }]);
    const uploaded = await f.tp.request({ method: 'POST', url: `/api/admin/collections/${collection.body.collection_id}/documents`, token: f.tokens.admin, payload, headers: { ...headers, ...acme } });
    t.equal(uploaded.status, 202);
    await until(async () => {
      const status = await f.tp.request({ url: `/api/admin/documents/${uploaded.body.document_id}/ingestion-status`, token: f.tokens.admin, headers: acme });
      return status.body.ingestion_status === 'ready';
    }, 'the document is ready', 60_000);

    const page = await openConsole(f, 'member', '/chat');
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.waitFor();
    t.same(await page.getByRole('heading', { level: 1 }).allInnerTexts(), ['Chat']);
    await composer.fill('When must boats at the north pier show a green lantern?');
    await composer.press('Enter');

    const answer = page.getByRole('article', { name: 'Assistant' }).last();
    await answer.filter({ hasText: 'green lantern' }).waitFor({ timeout: 30_000 });
    t.pass('the answer appears in the widget');

    const citations = page.getByRole('list', { name: 'Citations of the last answer' });
    await citations.waitFor({ timeout: 30_000 });
    const rows = citations.getByRole('listitem').filter({ hasText: 'harbour.txt' });
    t.ok(await rows.count() >= 1, 'the answer\'s citations are listed beside it');
    t.match(await rows.first().innerText(), /verified[\s\S]*exact/, 'with their verification');
    t.same(await axeViolations(page), [], 'axe finds nothing');
    t.same(page.errors, [], 'no page error (the widget loads under the console\'s CSP)');
    await screenshot(page, 'chat');
    await page.context().close();

    const sessions = await f.tp.request({ url: '/api/sessions', token: f.tokens.member, headers: acme });
    t.equal(sessions.status, 200);
    const session = sessions.body.items[0];
    const messages = await f.tp.request({ url: `/api/sessions/${session.id}/messages`, token: f.tokens.member, headers: acme });
    const stored = messages.body.items.find((m: { role: string }) => m.role === 'assistant');
    const rated = await f.tp.request({ method: 'POST', url: `/api/chat/${session.id}/feedback`, token: f.tokens.member, headers: acme, payload: { message_id: stored.id, rating: 4, comment: 'Clear about the lantern' } });
    t.equal(rated.status, 201, 'the member rates the answer');

    const admin = await openConsole(f, 'admin', '/chat');
    await admin.getByRole('heading', { level: 2, name: 'Conversations' }).waitFor();
    const table = admin.getByRole('table', { name: 'Conversations' });
    const title = session.title || 'Untitled';
    const row = table.getByRole('row').filter({ hasText: f.subs.member });
    await row.waitFor();
    const cells = await row.getByRole('cell').allInnerTexts();
    t.equal(cells[4], '1', 'the member\'s session with 1 feedback');
    t.ok(Number(cells[3]) >= 2, 'and its messages');
    await admin.getByRole('checkbox', { name: 'With feedback only' }).check();
    await admin.getByRole('combobox', { name: 'Rating' }).selectOption('4');
    await table.getByRole('row').filter({ hasText: f.subs.member }).waitFor();
    t.equal(await table.getByRole('row').count(), 2, 'with feedback rated 4: that session alone');
    await admin.getByRole('button', { name: `Open ${title}` }).click();
    const conversation = admin.getByRole('list', { name: `Messages of ${title}` });
    await conversation.waitFor();
    const answered = conversation.getByRole('listitem').filter({ hasText: 'green lantern' }).filter({ hasText: 'Assistant' });
    t.match(await answered.innerText(), /Rating\s*4[\s\S]*Clear about the lantern/, 'the answer with its rating and comment');
    t.same(await axeViolations(admin), [], 'axe finds nothing in the conversations');
    t.same(admin.errors, []);
    await screenshot(admin, 'chat-conversations');
    await admin.context().close();

    const member = await openConsole(f, 'member', '/chat');
    await member.getByRole('heading', { level: 2, name: 'Playground' }).waitFor();
    t.equal(await member.getByRole('heading', { name: 'Conversations' }).count(), 0, 'a member sees no conversations');
    await member.context().close();
  });
}
