// The Datasets section in real Chromium. Through the REST API, acme's admin
// materializes a transform twice (two snapshots of derived.acme.orders_src)
// and a second transform reading it; globex materializes one of its own. As
// acme's plain member: the list shows acme's datasets (filtered by name) and
// never globex's; a dataset's page shows its columns, the preview's rows, the
// snapshots with their exact ids (copied to the clipboard, previewed as of
// the older one) and the lineage (its writer, and the dataset reading it);
// nothing to change; the deep link /console/datasets?dataset=<id> opens a
// dataset, at 390 px too.
import t from 'tap';
import { axeViolations, browserMissing, consoleFixture, openConsole, screenshot, type ConsolePage } from './helpers.ts';

const missing = browserMissing();
if (missing) {
  t.test(`datasets section browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  const f = await consoleFixture(t);
  const rest = async (token: string, tenant: string, method: string, url: string, payload?: unknown) => {
    const res = await f.tp.request({ method, url, token, tenant, payload });
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const transform = async (token: string, tenant: string, name: string, sql: string) => {
    const { id } = await rest(token, tenant, 'POST', '/api/v1/transforms', { name, sql });
    const run = await rest(token, tenant, 'POST', `/api/v1/transforms/${id}/materialize`, {});
    if (run.status !== 'succeeded') throw new Error(`${name}: ${JSON.stringify(run)}`);
    return id as string;
  };
  const admin = f.tokens.admin;
  const srcId = await transform(admin, 'acme', 'orders_src', "SELECT 1::bigint AS id, 'ann' AS customer UNION ALL SELECT 2, 'bob'");
  await rest(admin, 'acme', 'PATCH', `/api/v1/transforms/${srcId}`, { sql: "SELECT 1::bigint AS id, 'ann' AS customer UNION ALL SELECT 2, 'bob' UNION ALL SELECT 3, 'cy'" });
  await rest(admin, 'acme', 'POST', `/api/v1/transforms/${srcId}/materialize`, {});
  await transform(admin, 'acme', 'orders_big', 'SELECT id, customer FROM derived.acme.orders_src WHERE id > 1');
  await transform(f.tp.adminToken, 'globex', 'globex_secret', "SELECT 'hidden'::text AS secret");
  const snapshots = (await rest(admin, 'acme', 'GET', '/api/v1/datasets/derived.acme.orders_src/snapshots')).items as { snapshot_id_exact: string }[];
  t.equal(snapshots.length, 2, 'two snapshots of orders_src');
  const [newest, older] = snapshots.map((s) => s.snapshot_id_exact) as [string, string];

  const checkPage = async (t: { same: (a: unknown, b: unknown, m: string) => void }, page: ConsolePage, name: string) => {
    t.same(await page.getByRole('heading', { level: 1 }).allInnerTexts(), ['Datasets'], `${name}: one h1`);
    t.same(await axeViolations(page), [], `${name}: axe finds nothing`);
    t.same(page.errors, [], `${name}: no page error`);
    await screenshot(page, name);
  };

  t.test('a member lists the datasets, opens one: columns, preview, snapshots with exact ids, lineage', async (t) => {
    const page = await openConsole(f, 'member', '/datasets', { permissions: ['clipboard-read', 'clipboard-write'] });
    const list = page.getByRole('table', { name: 'Datasets' });
    await list.waitFor();
    const names = await list.locator('td:first-child').allInnerTexts();
    t.same(names, ['derived.acme.orders_big', 'derived.acme.orders_src'], 'acme\'s datasets; globex\'s never');
    const cells = await list.getByRole('row', { name: /orders_src/ }).getByRole('cell').allInnerTexts();
    t.same([...cells.slice(0, 3), cells[4]], ['derived.acme.orders_src', 'derived', '3', 'Transform orders_src'], 'name, namespace, rows, writer');
    t.match(cells[3], /\d/, 'updated');
    await checkPage(t, page, 'datasets-list');

    await page.getByLabel('Name contains').fill('SRC');
    await page.getByRole('button', { name: 'Search' }).click();
    await list.getByRole('button', { name: 'Open derived.acme.orders_big' }).waitFor({ state: 'detached' });
    t.same(await list.locator('td:first-child').allInnerTexts(), ['derived.acme.orders_src'], 'filtered by name');
    await page.getByLabel('Name contains').fill('globex');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Datasets: none found').waitFor();

    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByRole('button', { name: 'Open derived.acme.orders_src' }).click();
    await page.getByRole('heading', { name: 'derived.acme.orders_src', level: 2 }).waitFor();
    t.equal(new URL(page.url()).pathname, '/console/datasets/derived/acme/orders_src', 'the dataset\'s own address');
    t.same(await page.getByRole('table', { name: 'Columns' }).getByRole('row').allInnerTexts(), ['Column\tType', 'id\tbigint', 'customer\ttext']);
    const preview = page.getByRole('table', { name: 'Preview of the latest snapshot' });
    await preview.waitFor();
    t.same((await preview.getByRole('row').allInnerTexts()).slice(1), ['1\tann', '2\tbob', '3\tcy'], 'the preview shows the rows');
    const snapshotTable = page.getByRole('table', { name: 'Snapshots' });
    await snapshotTable.getByText(older).waitFor();
    t.same(await snapshotTable.locator('code').allInnerTexts(), [newest, older], 'the exact ids, newest first');
    t.ok(BigInt(newest) > 2n ** 53n, 'ids past 2^53, shown exactly');
    await snapshotTable.getByRole('button', { name: `Copy snapshot id ${older}` }).click();
    await page.getByText(`Copied ${older}`).waitFor({ state: 'attached' });
    t.equal(await page.evaluate(() => navigator.clipboard.readText()), older, 'Copy puts the exact id on the clipboard');

    const lineage = page.getByRole('region', { name: 'Lineage' });
    await lineage.getByText('Transform orders_src').waitFor();
    t.ok(await lineage.getByRole('link', { name: 'derived.acme.orders_big' }).isVisible(), 'downstream: the dataset reading it');
    t.equal(await page.getByRole('button', { name: /delete|edit|materialize|sync/i }).count(), 0, 'read-only: nothing to change');
    await checkPage(t, page, 'datasets-detail');

    await snapshotTable.getByRole('button', { name: `Preview as of snapshot ${older}` }).click();
    const past = page.getByRole('table', { name: `Preview as of snapshot ${older}` });
    await past.waitFor();
    t.same((await past.getByRole('row').allInnerTexts()).slice(1), ['1\tann', '2\tbob'], 'time travel: the rows as of the older snapshot');
    await page.getByRole('button', { name: 'Back to the latest snapshot' }).click();
    await preview.waitFor();

    await lineage.getByRole('link', { name: 'derived.acme.orders_big' }).click();
    await page.getByRole('heading', { name: 'derived.acme.orders_big', level: 2 }).waitFor();
    await page.getByRole('region', { name: 'Lineage' }).getByRole('link', { name: 'derived.acme.orders_src' }).waitFor();
    t.pass('upstream: the dataset it reads from');
    await page.goBack();
    await page.getByRole('heading', { name: 'derived.acme.orders_src', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'All datasets' }).click();
    await list.waitFor();
    await page.context().close();
  });

  t.test('the deep link ?dataset=<id> opens a dataset, at 390 px', async (t) => {
    const page = await openConsole(f, 'member', '/datasets?dataset=derived.acme.orders_big', { viewport: { width: 390, height: 800 } });
    await page.getByRole('heading', { name: 'derived.acme.orders_big', level: 2 }).waitFor();
    t.equal(new URL(page.url()).pathname, '/console/datasets/derived/acme/orders_big');
    await page.getByRole('table', { name: 'Preview of the latest snapshot' }).waitFor();
    await page.getByRole('region', { name: 'Lineage' }).getByText('Transform orders_big').waitFor();
    await checkPage(t, page, 'datasets-detail-390');
    await page.context().close();
  });
}
