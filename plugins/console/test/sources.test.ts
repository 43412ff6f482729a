// The Sources section in real Chromium, signed in as acme's admin: a CSV
// source (a file served by a loopback HTTP server) created from the csv
// pattern's generated form; Sync now with no stream enabled queues nothing
// and offers the discovered streams instead; the stream enabled and applied,
// Sync now runs it live to succeeded with its row count, its streams and
// log; the rows are in the dataset it wrote (REST). A source created with a
// write-only credential shows it only as set, and replaces it; a schedule is
// saved, paused and deleted.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { axeViolations, browserMissing, consoleFixture, openConsole, screenshot, type ConsolePage } from './helpers.ts';

const CSV = 'id,name,price\n1,apple,1.5\n2,pear,2\n3,plum,0.5\n';
const SECRET = 'never-shown-key-93f1';

const missing = browserMissing();
if (missing) {
  t.test(`sources section browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  const server = createServer((request, response) => {
    if (request.url === '/prices.csv') response.writeHead(200, { 'content-type': 'text/csv' }).end(CSV);
    else response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const f = await consoleFixture(t, { PIPELINES_ALLOW_PRIVATE_NETWORKS: 'true', PIPELINES_SYNC_RETRY_LIMIT: '0' });
  const rest = (url: string) => f.tp.request({ url, token: f.tokens.admin, tenant: 'acme' });

  const checkPage = async (t: { same: (a: unknown, b: unknown, m: string) => void }, page: ConsolePage, name: string) => {
    t.same(await page.getByRole('heading', { level: 1 }).allInnerTexts(), ['Sources'], `${name}: one h1`);
    t.same(await axeViolations(page), [], `${name}: axe finds nothing`);
    t.same(page.errors, [], `${name}: no page error`);
    await screenshot(page, name);
  };
  const announced = (page: ConsolePage, text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).waitFor({ state: 'attached' });

  t.test('a CSV source: created in the form, discovered, its stream enabled, synced live; the rows land', async (t) => {
    const page = await openConsole(f, 'admin', '/sources');
    await page.getByText('Sources: none yet').waitFor();
    await page.getByRole('button', { name: 'New source' }).click();
    await page.getByRole('combobox', { name: 'Pattern' }).selectOption('csv');
    const form = page.locator('console-schema-form');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('fruit');
    await form.getByRole('textbox', { name: 'url', exact: true }).fill(`${origin}/prices.csv`);
    await form.getByRole('textbox', { name: 'stream_name', exact: true }).fill('prices');
    await checkPage(t, page, 'sources-create');
    await form.getByRole('button', { name: 'Create source' }).click();
    await page.getByRole('heading', { name: 'fruit', level: 2 }).waitFor();
    const [source] = (await rest('/api/v1/sources')).body.items;
    t.match(source, { name: 'fruit', pattern_id: 'csv', source_config: { url: `${origin}/prices.csv`, stream_name: 'prices' }, state: 'ready' }, 'REST: created');

    // No stream yet: Sync now starts nothing and offers the discovered streams.
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.locator('console-sources-discover').getByText(/No stream of this source is enabled/).waitFor();
    const enable = page.getByRole('checkbox', { name: 'Enable prices' });
    await enable.waitFor({ timeout: 60_000 });
    t.same((await rest(`/api/v1/sources/${source.id}/sync-history`)).body.items, [], 'nothing was queued');
    t.match(await page.locator('console-sources-discover').getByRole('listitem').innerText(), /Columns: id \(integer\), name \(string\), price \(number\)/, 'the columns found');
    await enable.check();
    await checkPage(t, page, 'sources-discovery');
    await page.getByRole('button', { name: 'Apply and enable the chosen streams' }).click();
    await announced(page, 'Streams applied: 1 enabled');
    t.match(await page.getByRole('table', { name: 'Streams' }).getByRole('row', { name: /prices/ }).innerText(), /Enabled\s+full refresh\s+overwrite/);

    await page.getByRole('button', { name: 'Sync now' }).click();
    await announced(page, 'Sync of fruit succeeded: 3 row(s) read');
    const row = page.getByRole('table', { name: 'Runs' }).getByRole('row', { name: /succeeded/ });
    t.same((await row.getByRole('cell').allInnerTexts()).slice(1, 5), ['succeeded', 'manual', '3', '3'], 'the run, its trigger and row counts');
    await row.getByRole('button', { name: /^Run of / }).click();
    const streams = page.getByRole('table', { name: 'Streams of the run' });
    await streams.getByRole('row', { name: /prices/ }).waitFor();
    t.same((await streams.getByRole('row', { name: /prices/ }).getByRole('cell').allInnerTexts()).slice(0, 6), ['prices', 'succeeded', '3', '3', '0', 'raw.acme.fruit_prices']);
    await page.getByRole('list', { name: 'Log' }).getByText(/run succeeded/).waitFor();
    const listed = page.getByRole('table', { name: 'Sources' }).getByRole('row', { name: /fruit/ });
    await listed.getByText('succeeded').waitFor();
    t.match(await listed.innerText(), /active/, 'the list shows the state and last run');
    await checkPage(t, page, 'sources-run');

    const rows = (await rest('/api/v1/datasets/raw.acme.fruit_prices/preview')).body.rows as { id: number; name: string; price: number }[];
    t.same(rows.map((r) => [r.id, r.name, r.price]).sort(), [[1, 'apple', 1.5], [2, 'pear', 2], [3, 'plum', 0.5]], 'the dataset holds the rows');

    // A schedule: saved, paused, deleted.
    await page.getByRole('textbox', { name: 'Time zone' }).fill('Europe/Lisbon');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await page.getByRole('button', { name: 'Pause schedule' }).click();
    await page.getByRole('button', { name: 'Resume schedule' }).waitFor();
    t.match((await rest(`/api/v1/sources/${source.id}/schedule`)).body, { cron: '0 3 * * *', timezone: 'Europe/Lisbon', paused: true });
    await page.getByRole('button', { name: 'Delete schedule' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No schedule: syncs run only when started.').waitFor();
    t.equal((await rest(`/api/v1/sources/${source.id}/schedule`)).status, 404, 'REST: deleted');

    // The dataset the sync wrote, in the Datasets section: its preview shows the rows.
    await page.getByRole('navigation').getByRole('link', { name: 'Datasets' }).click();
    await page.getByRole('button', { name: 'Open raw.acme.fruit_prices' }).click();
    const preview = page.getByRole('table', { name: 'Preview of the latest snapshot' });
    await preview.getByRole('row', { name: /plum/ }).waitFor();
    const previewed = (await preview.getByRole('row').allInnerTexts()).slice(1).join('\n');
    for (const [name, price] of [['apple', '1.5'], ['pear', '2'], ['plum', '0.5']]) t.match(previewed, new RegExp(`${name}\\t${price}\\b`), `the Datasets preview shows ${name}`);
    await page.context().close();
  });

  t.test('a credential is write-only: sent on create, shown as set, replaced, never read back (390 px)', async (t) => {
    const page = await openConsole(f, 'admin', '/sources', { viewport: { width: 390, height: 844 } });
    await page.getByRole('button', { name: 'New source' }).click();
    await page.getByRole('combobox', { name: 'Pattern' }).selectOption('http_json');
    const form = page.locator('console-schema-form');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('feed');
    await form.getByRole('textbox', { name: 'url', exact: true }).fill(`${origin}/items`);
    await form.getByLabel('api_key', { exact: true }).fill(SECRET);
    await form.getByRole('button', { name: 'Create source' }).click();
    await page.getByRole('heading', { name: 'feed', level: 2 }).waitFor();
    const credentials = page.locator('console-sources-credentials');
    t.same(await credentials.locator('console-status').allInnerTexts(), ['set'], 'api_key: set');
    const created = (await rest('/api/v1/sources')).body.items.find((s: { name: string }) => s.name === 'feed');
    t.same(created.credential_fields_set, ['api_key'], 'REST: the credential is set');
    t.notOk(JSON.stringify(created).includes(SECRET), 'and never read back');

    await credentials.getByRole('button', { name: 'Replace credentials' }).click();
    await credentials.getByLabel('api_key', { exact: true }).fill('a-new-key-value');
    await credentials.getByRole('button', { name: 'Save credentials' }).click();
    await announced(page, 'Credentials of feed saved');
    const replaced = (await rest(`/api/v1/sources/${created.id}`)).body;
    t.not(replaced.credential_ref, created.credential_ref, 'a new credential is attached');
    const shown = await page.evaluate(() => {
      const texts: string[] = [];
      const walk = (root: Document | ShadowRoot) => root.querySelectorAll('*').forEach((el) => {
        if (el instanceof HTMLInputElement) texts.push(el.value);
        if (el.shadowRoot) walk(el.shadowRoot);
      });
      walk(document);
      return texts.join('\n') + document.body.innerText;
    });
    t.notOk(shown.includes(SECRET) || shown.includes('a-new-key-value'), 'no credential value stays in the page');
    await checkPage(t, page, 'sources-credentials-390');
    await page.context().close();
  });
}
