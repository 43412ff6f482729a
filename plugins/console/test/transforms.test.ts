// The Transforms section in real Chromium, as acme's admin: a dataset with
// rows made through the REST API (a transform over VALUES, materialized);
// bad SQL typed in the CodeMirror editor shows its error at its line after
// Review (in the list and marked in the editor); the fixed SQL reviews clean
// with its input, Preview shows its rows, Tab leaves the editor; the
// transform is created, run now (its run and artifacts listed), scheduled,
// paused, resumed and unscheduled; on a 390 px screen too. CodeMirror's
// styles are adopted in the shadow root (no CSP error on the page).
import t from 'tap';
import { axeViolations, browserMissing, consoleFixture, openConsole, screenshot, type ConsolePage } from './helpers.ts';

const missing = browserMissing();
if (missing) {
  t.test(`transforms section browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  const f = await consoleFixture(t);
  const admin = (method: string, url: string, payload?: unknown) => f.tp.request({ method, url, token: f.tokens.admin, tenant: 'acme', payload });
  const seed = await admin('POST', '/api/v1/transforms', {
    name: 'orders', output_dataset: 'orders',
    sql: "SELECT v.id, v.customer, v.amount FROM (VALUES (1, 'ann', 10.5), (2, 'bob', 3.0), (3, 'ann', 7.0)) AS v(id, customer, amount)",
  });
  if (seed.status !== 201) throw new Error(JSON.stringify(seed.body));
  const landed = await admin('POST', `/api/v1/transforms/${seed.body.id}/materialize`, { wait: true });
  if (landed.body.status !== 'succeeded') throw new Error(JSON.stringify(landed.body));

  const checkPage = async (t: Tap, page: ConsolePage, name: string) => {
    t.same(await page.getByRole('heading', { level: 1 }).allInnerTexts(), ['Transforms'], `${name}: one h1`);
    t.same(await axeViolations(page), [], `${name}: axe finds nothing`);
    t.same(page.errors, [], `${name}: no page error (no CSP violation)`);
    await screenshot(page, name);
  };
  type Tap = { same: (a: unknown, b: unknown, m: string) => void };

  /** Replaces the editor's text by typing `lines` (Enter between them). */
  const typeSql = async (page: ConsolePage, lines: string[]) => {
    const editor = page.getByRole('textbox', { name: 'SQL', exact: true });
    await editor.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Delete');
    for (const [i, line] of lines.entries()) {
      if (i) await page.keyboard.press('Enter');
      await page.keyboard.type(line);
    }
  };

  t.test('bad SQL shows its error at its line; fixed SQL reviews clean, previews, saves, runs and is scheduled', async (t) => {
    const page = await openConsole(f, 'admin', '/transforms');
    const list = page.getByRole('table', { name: 'Transforms' });
    await list.getByRole('button', { name: 'Open orders' }).waitFor();
    await page.getByRole('button', { name: 'New transform' }).click();
    await page.getByRole('heading', { name: 'New transform', level: 2 }).waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('customer_totals');

    await typeSql(page, ['SELECT customer, sum(amount) AS total', 'FROM derived.acme.orders', 'GROUP BY customer', 'ORDER BY total DESCC']);
    await page.getByRole('button', { name: 'Review', exact: true }).click();
    const findings = page.getByRole('list', { name: 'Findings' });
    await findings.waitFor();
    t.match(await findings.innerText(), /Error\s+Line 4, column \d+\s+syntax error at or near "DESCC"/, 'the error at line 4');
    t.equal(await page.locator('console-sql-editor .cm-lintRange-error').count(), 1, 'marked in the editor');
    t.match(await page.locator('console-sql-editor .cm-lintRange-error').innerText(), /DESCC/, 'on the bad word');
    t.equal(await page.locator('console-sql-editor .cm-editor').evaluate((el) => getComputedStyle(el).display), 'flex', 'CodeMirror\'s styles are adopted in the shadow root');
    const keyword = page.locator('console-sql-editor .cm-line span').filter({ hasText: /^SELECT$/ }).first();
    t.not(await keyword.evaluate((el) => getComputedStyle(el).color), await page.locator('console-sql-editor .cm-content').evaluate((el) => getComputedStyle(el).color), 'keywords highlighted');
    await checkPage(t, page, 'transforms-review-error');

    await typeSql(page, ['SELECT customer, sum(amount) AS total', 'FROM derived.acme.orders', 'GROUP BY customer', 'ORDER BY total DESC']);
    await page.getByRole('button', { name: 'Review', exact: true }).click();
    await page.locator('console-status', { hasText: /^No errors$/ }).waitFor();
    t.equal(await page.getByRole('list', { name: 'Findings' }).count(), 0, 'no findings');
    t.equal(await page.locator('console-sql-editor .cm-lintRange-error').count(), 0, 'nothing marked');
    t.match(await page.locator('console-transform-review dl').innerText(), /Inputs found\s+derived\.acme\.orders/, 'the input found');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.getByRole('table', { name: 'Preview' });
    await preview.waitFor();
    t.same(await preview.getByRole('row').allInnerTexts(), ['customer\ttotal', 'ann\t17.5', 'bob\t3.0'], 'the rows');

    await page.getByRole('textbox', { name: 'SQL', exact: true }).focus();
    await page.keyboard.press('Tab');
    t.ok(await page.getByLabel('Parameters (JSON)').evaluate((el) => el.matches(':focus')), 'Tab leaves the editor for the next field');
    await checkPage(t, page, 'transforms-preview');

    await page.getByRole('button', { name: 'Create transform' }).click();
    await page.getByRole('heading', { name: 'Transform customer_totals', level: 2 }).waitFor();
    const saved = (await admin('GET', '/api/v1/transforms')).body.items.find((x: { name: string }) => x.name === 'customer_totals');
    t.match(saved, { output_dataset: 'derived.acme.customer_totals', inputs: ['derived.acme.orders'] }, 'REST: created');

    await page.getByRole('button', { name: 'Run now' }).click();
    const runs = page.getByRole('table', { name: 'Runs' });
    await runs.getByText('Succeeded').waitFor();
    t.match((await runs.getByRole('row').allInnerTexts())[1], /materialize\tSucceeded\t2\t/, 'the run: status and rows');
    const artifacts = page.getByRole('table', { name: 'Artifacts' });
    t.same((await artifacts.getByRole('row').locator('td:first-child').allInnerTexts()).sort(), ['Compiled SQL', 'Logs', 'Output summary']);
    await artifacts.getByRole('row', { name: /Compiled SQL/ }).getByRole('button').click();
    t.match(await page.getByRole('region', { name: /\.sql of run \d+$/ }).innerText(), /sum\(/, 'the compiled SQL shown');

    await page.getByRole('textbox', { name: 'Cron' }).fill('30 5 * * 1');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.getByRole('button', { name: 'Resume', exact: true }).waitFor();
    t.match((await admin('GET', `/api/v1/transforms/${saved.id}/schedule`)).body, { cron: '30 5 * * 1', paused: true }, 'REST: scheduled and paused');
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    await checkPage(t, page, 'transforms-runs');
    await page.getByRole('button', { name: 'Delete schedule' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete schedule' }).click();
    await page.getByText('No schedule: the transform runs when asked.').waitFor();
    t.equal((await admin('GET', `/api/v1/transforms/${saved.id}/schedule`)).status, 404, 'REST: unscheduled');
    await page.context().close();
  });

  t.test('on a 390 px screen', async (t) => {
    const page = await openConsole(f, 'admin', '/transforms', { viewport: { width: 390, height: 844 } });
    await page.getByRole('button', { name: 'Open customer_totals' }).click();
    await page.getByRole('heading', { name: 'Transform customer_totals', level: 2 }).waitFor();
    await page.locator('console-sql-editor .cm-content').waitFor();
    await checkPage(t, page, 'transforms-390');
    await page.context().close();
  });
}
