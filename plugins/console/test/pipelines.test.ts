// The Pipelines section in real Chromium, as acme's admin: the orders a
// csv source synced through REST are read by a two-step pipeline created,
// drawn and connected in the page (the graph shows both steps and the
// edge), sandboxed (both steps' rows and samples shown), activated (the
// state shown, the REST read agreeing) and run in production; a pipeline
// whose steps read each other (made through REST) has its cycle marked
// after Validate, at 390 px too.
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { axeViolations, browserMissing, consoleFixture, openConsole, screenshot, type ConsolePage } from './helpers.ts';

const missing = browserMissing();
if (missing) {
  t.test(`pipelines section browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  const f = await consoleFixture(t);
  const admin = (method: string, url: string, payload?: unknown, headers?: Record<string, string>) =>
    f.tp.request({ method, url, token: f.tokens.admin, tenant: 'acme', payload, headers });
  const expect = async (method: string, url: string, payload: unknown, status: number, headers?: Record<string, string>) => {
    const res = await admin(method, url, payload, headers);
    if (res.status !== status) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };

  // The data the steps read: an uploaded CSV synced by a csv source into raw.acme.shop_orders.
  const file = await expect('POST', '/api/v1/sources/files?name=orders.csv', 'id,amount,region\n1,5,north\n2,50,north\n3,20,south\n', 201, { 'content-type': 'text/csv' });
  const source = await expect('POST', '/api/v1/sources', { name: 'shop', pattern_id: 'csv', source_config: { file_id: file.id, stream_name: 'orders' } }, 201);
  const discovery = await expect('POST', '/api/v1/sources/discover', { source_id: source.id, apply: true }, 202);
  await until(async () => !['queued', 'running'].includes((await admin('GET', `/api/v1/sources/discover/status/${discovery.workflow_id}`)).body.status), 'the discovery ends', 60_000);
  await expect('POST', `/api/v1/sources/${source.id}/sync`, undefined, 202);
  const synced = await until(async () => {
    const run = (await admin('GET', `/api/v1/sources/${source.id}/sync/status`)).body.run;
    return run?.is_terminal && run;
  }, 'the sync ends', 60_000);
  if (synced.status !== 'succeeded') throw new Error(`sync: ${JSON.stringify(synced)}`);
  // A pipeline whose two steps read each other.
  await expect('POST', '/api/v1/pipelines', {
    name: 'loop',
    steps: [
      { id: 'a', sql: 'SELECT 1 AS x', output: 'loop_a', inputs: ['b'] },
      { id: 'b', sql: 'SELECT 2 AS x', output: 'loop_b', inputs: ['a'] },
    ],
  }, 201);

  const checkPage = async (t: { same: (a: unknown, b: unknown, m: string) => void }, page: ConsolePage, name: string) => {
    t.same(await page.getByRole('heading', { level: 1 }).allInnerTexts(), ['Pipelines'], `${name}: one h1`);
    t.same(await axeViolations(page), [], `${name}: axe finds nothing`);
    t.same(page.errors, [], `${name}: no page error`);
    await screenshot(page, name);
  };
  const announced = (page: ConsolePage, text: string, timeout?: number) => page.getByRole('status').filter({ hasText: text }).waitFor({ state: 'attached', timeout });

  t.test('a two-step pipeline drawn, connected, sandboxed, activated and run', async (t) => {
    const page = await openConsole(f, 'admin', '/pipelines');
    await page.getByRole('button', { name: 'Open pipeline loop' }).waitFor();

    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('orders_flow');
    await page.getByRole('textbox', { name: 'Description', exact: true }).fill('Big orders by region');
    await page.getByRole('button', { name: 'Create pipeline' }).click();
    await page.getByRole('heading', { name: 'orders_flow', level: 2 }).waitFor();
    t.equal(await page.getByRole('heading', { name: 'orders_flow' }).evaluate((h) => h.matches(':focus')), true, 'the opened pipeline\'s heading has the focus');

    const addStep = async (id: string, sql: string, output: string, datasets = '') => {
      await page.getByLabel('Step id').fill(id);
      await page.getByRole('textbox', { name: 'SQL', exact: true }).fill(sql);
      await page.getByLabel('Output table').fill(output);
      await page.getByLabel('Input datasets').fill(datasets);
      await page.getByRole('button', { name: 'Add step' }).click();
      await announced(page, `Step ${id} added`);
    };
    await addStep('big', 'SELECT id, amount, region FROM raw.acme.shop_orders WHERE amount > 10', 'orders_big', 'raw.acme.shop_orders');
    await addStep('by_region', 'SELECT region, count(*) AS orders, sum(amount) AS total FROM derived.acme.orders_big GROUP BY region', 'orders_by_region');
    const edges = page.getByRole('list', { name: 'Edges' });
    t.equal(await edges.count(), 0, 'two steps, no edge yet');

    await page.getByLabel('From step').selectOption('big');
    await page.getByLabel('To step (reads the first)').selectOption('by_region');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await announced(page, 'big → by_region connected');
    t.same(await edges.getByRole('listitem').allInnerTexts(), ['big → by_region'], 'the edge, in words');
    t.match(await page.getByRole('list', { name: 'Steps' }).getByRole('listitem').allInnerTexts(), [/^big: layer 1; inline SQL writing orders_big; reads raw\.acme\.shop_orders$/, /^by_region: layer 2; inline SQL writing orders_by_region$/]);
    const graph = page.locator('console-pipeline-graph');
    t.same(await graph.locator('g.step').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-step'))), ['big', 'by_region'], 'the graph draws both steps');
    t.equal(await graph.locator('path.edge').count(), 1, 'and one arrow');
    t.match(await graph.getByRole('img').getAttribute('aria-label'), /orders_flow: 2 steps, 1 edges/);
    const stored = (await admin('GET', '/api/v1/pipelines')).body.items.find((p: { name: string }) => p.name === 'orders_flow');
    t.same(stored.steps.map((s: { id: string; inputs: string[] }) => [s.id, s.inputs]), [['big', ['raw.acme.shop_orders']], ['by_region', ['big']]], 'REST: the steps as drawn');
    await checkPage(t, page, 'pipelines-graph');

    await page.getByRole('button', { name: 'Sandbox run' }).click();
    await announced(page, 'Sandbox run ended: Succeeded', 60_000);
    const steps = page.getByRole('table', { name: 'Steps of the sandbox run' });
    const cells = async (row: string) => (await steps.getByRole('row').filter({ hasText: row }).getByRole('cell').allInnerTexts()).slice(0, 3);
    t.same(await cells('big'), ['big', 'Succeeded', '2'], 'the first step\'s rows');
    t.same(await cells('by_region'), ['by_region', 'Succeeded', '2'], 'the second step\'s rows');
    const sample = page.getByRole('table', { name: 'Sample of by_region (2 rows)' });
    t.same((await sample.getByRole('columnheader').allInnerTexts()), ['region', 'orders', 'total']);
    t.same((await sample.getByRole('row').allInnerTexts()).slice(1).map((r) => r.split('\t')).sort(), [['north', '1', '50'], ['south', '1', '20']], 'the sample, read from the sandbox copy of the first step');
    t.equal(await page.getByRole('table', { name: 'Sample of big (2 rows)' }).count(), 1);
    await checkPage(t, page, 'pipelines-sandbox');

    await page.getByRole('button', { name: 'Activate' }).click();
    await announced(page, 'orders_flow is active (version 1)');
    t.equal(await page.getByRole('region', { name: 'orders_flow', exact: true }).locator('console-status').first().innerText(), 'Active', 'the state shown');
    t.match((await admin('GET', `/api/v1/pipelines/${stored.id}`)).body, { state: 'active', active_version: 1 }, 'REST: active');
    t.match(await page.getByRole('table', { name: 'Versions' }).getByRole('row').nth(1).innerText(), /^1\tActive/, 'version 1 is marked active');

    await page.getByRole('button', { name: 'Run now' }).click();
    await announced(page, 'Production run ended: Succeeded', 60_000);
    const runs = page.getByRole('table', { name: 'Runs' });
    t.same((await runs.getByRole('row').allInnerTexts()).slice(1).map((r) => r.split('\t').slice(1, 5)), [['Production', 'Run now', '1', 'Succeeded'], ['Sandbox', 'Manual', '1', 'Succeeded']]);
    await runs.getByRole('button', { name: /^Steps of run / }).first().click();
    const production = page.getByRole('table', { name: /^Steps of run [0-9a-f]{8}$/ });
    t.same((await production.getByRole('row').allInnerTexts()).slice(1).map((r) => r.split('\t').slice(0, 4)),
      [['big', 'Succeeded', '2', 'derived.acme.orders_big'], ['by_region', 'Succeeded', '2', 'derived.acme.orders_by_region']], 'the production run\'s steps');
    await checkPage(t, page, 'pipelines-active');
    await page.context().close();
  });

  t.test('a cycle is marked after Validate', async (t) => {
    const page = await openConsole(f, 'admin', '/pipelines', { viewport: { width: 390, height: 844 } });
    await page.getByRole('button', { name: 'Open pipeline loop' }).click();
    await page.getByRole('heading', { name: 'loop', level: 2 }).waitFor();
    const graph = page.locator('console-pipeline-graph');
    t.equal(await graph.locator('rect.cycle').count(), 0, 'nothing marked before validation');
    await page.getByRole('button', { name: 'Validate' }).click();
    await announced(page, 'The DAG has 1 errors');
    t.match(await page.getByRole('list', { name: 'Validation' }).innerText(), /^DAG_CYCLE: steps a -> b form a cycle$/);
    t.equal(await graph.locator('rect.cycle').count(), 2, 'both steps drawn as a cycle');
    t.equal(await graph.locator('path.edge.cycle').count(), 2, 'and both arrows');
    t.same(await page.getByRole('list', { name: 'Steps' }).getByRole('listitem').evaluateAll((items) => items.map((i) => i.textContent!.includes('(in a cycle)'))), [true, true], 'named in the steps list');
    t.same(await page.getByRole('list', { name: 'Edges' }).getByRole('listitem').allInnerTexts(), ['b → a (in a cycle)', 'a → b (in a cycle)']);
    await checkPage(t, page, 'pipelines-cycle-390');
    await page.context().close();
  });
}
