// The Chat section in real Chromium, as acme's plain member: the playground is
// the embeddable widget (/embed/v1/platform-chat.ce.js, under the console's
// CSP) on the tenant's default client; with no model configured the offline
// responder quotes an uploaded document, the answer appears in the widget and
// its citations are listed beside it, verified. axe and a screenshot.
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
  });
}
