// The Ontology section in real Chromium, as acme's admin: an entity type
// with two versions and a backing dataset synced once (set up through the
// REST API, the lake dataset written as the ontology tests write it) shows
// its versions with their changes and its sync history; Sync now adds a
// skipped run; a run opened shows its bulk jobs; an edit saves a new
// version. An identity policy's dry run on the lake dataset, on a 390 px
// screen, shows the merge with the rule that made it.
import t from 'tap';
import type { Test } from 'tap';
import { lakeOf, lightsBacking, syncAndWait, writeLights } from '../../ontology/test/helpers.ts';
import { axeViolations, browserMissing, consoleFixture, openConsole, screenshot, type ConsolePage } from './helpers.ts';

const missing = browserMissing();
if (missing) {
  t.test(`ontology section browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  const f = await consoleFixture(t, { JOBS_POLL_INTERVAL_MS: '100' });
  const as = (method: string, url: string, payload?: unknown) => f.tp.request({ method, url, token: f.tokens.admin, tenant: 'acme', payload });
  await writeLights(lakeOf(f.tp), [
    { id: 'L1', label: 'first', watts: 40, email: 'Ana@Example.com' },
    { id: 'L2', label: 'second', watts: 60, email: ' ana@example.com' },
    { id: 'L3', label: 'third', watts: 80, email: 'bob@example.com' },
  ]);
  const backing = await lightsBacking(as);
  const patched = await as('PATCH', '/api/v1/ontology/entity-types/street_light', {
    description: 'Lights of the city',
    properties: {
      type: 'object', required: ['light_id', 'name'],
      properties: { light_id: { type: 'string' }, name: { type: 'string' }, watts: { type: 'integer' }, contact: { type: 'string', format: 'email' }, height: { type: 'number' } },
    },
  });
  if (patched.body.current_version !== 2) throw new Error(JSON.stringify(patched.body));
  const first = await syncAndWait(as, backing.id);
  if (first.run.status !== 'succeeded') throw new Error(JSON.stringify(first.run));
  const policy = await as('POST', '/api/v1/identity-policies', {
    name: 'light-contacts', description: 'One contact per e-mail address',
    rules: [{ name: 'same_email', kind: 'normalized', fields: [{ field: 'email', normalizers: ['email'] }] }],
  });
  if (policy.status !== 201) throw new Error(JSON.stringify(policy.body));

  const rowsOf = async (page: ConsolePage, table: string, columns: number) =>
    (await page.getByRole('table', { name: table }).getByRole('row').allInnerTexts()).slice(1).map((row) => row.split('\t').slice(0, columns).map((cell) => cell.trim()));
  const announced = (page: ConsolePage, text: string) => page.getByRole('status').filter({ hasText: text }).waitFor({ state: 'attached' });
  const checkPage = async (t: Test, page: ConsolePage, name: string) => {
    t.same(await page.getByRole('heading', { level: 1 }).allInnerTexts(), ['Ontology'], `${name}: one h1`);
    t.same(await axeViolations(page), [], `${name}: axe finds nothing`);
    t.same(page.errors, [], `${name}: no page error`);
    await screenshot(page, name);
  };

  t.test('an entity type with its versions, its backing dataset and the sync history after a sync; Sync now; a new version', async (t) => {
    const page = await openConsole(f, 'admin', '/ontology');
    await page.getByRole('button', { name: 'Open entity type street_light' }).click();
    const heading = page.getByRole('heading', { name: 'Entity type street_light' });
    await heading.waitFor();
    t.ok(await heading.evaluate((el) => el.matches(':focus')), 'the opened type\'s heading has the focus');
    await page.getByRole('table', { name: 'Versions: street_light' }).waitFor();
    t.same(await rowsOf(page, 'Versions: street_light', 1), [['2'], ['1']], 'its versions, newest first');
    const versions = page.getByRole('table', { name: 'Versions: street_light' }).getByRole('row');
    t.match(await versions.nth(1).innerText(), /Description changed[\s\S]*Property height added/, 'what version 2 changed');
    t.match(await versions.nth(2).innerText(), /First version/);
    t.same(await rowsOf(page, 'Mapping of lights', 2), [['id', 'light_id'], ['label', 'name'], ['watts', 'watts']], 'the mapping');
    t.match(await page.getByRole('heading', { name: 'lights: raw.acme.lights' }).innerText(), /lights/, 'the dataset that backs it');
    t.same(await rowsOf(page, 'Sync history of lights', 4), [[first.run.id.slice(0, 8), 'succeeded', 'first sync', '3']], 'the sync made through REST');

    await page.getByRole('button', { name: 'Sync now: lights' }).click();
    await announced(page, 'Sync of lights: skipped, 0 rows synced');
    t.same((await rowsOf(page, 'Sync history of lights', 4)).map((row) => row.slice(1)), [['skipped', 'not replayed', '0'], ['succeeded', 'first sync', '3']],
      'an unchanged snapshot and spec: the new run is skipped');

    await page.getByRole('button', { name: `Open run ${first.run.id}` }).click();
    await page.getByRole('heading', { name: `Run ${first.run.id}` }).waitFor();
    t.same(await rowsOf(page, 'Bulk jobs', 3), [['upsert', '3', '3'], ['delete_stale', '0', '0']], 'the first sync\'s bulk jobs');
    await checkPage(t, page, 'ontology-type');

    await page.getByRole('button', { name: 'Edit (new version)' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Street lamp');
    await page.getByRole('button', { name: 'Save as a new version' }).click();
    await announced(page, 'Entity type street_light: version 3 saved');
    await page.getByRole('table', { name: 'Versions: street_light' }).getByText('Name is now Street lamp').waitFor();
    t.equal((await as('GET', '/api/v1/ontology/entity-types/street_light')).body.current_version, 3, 'REST: version 3');
    t.same(page.errors, []);
    await page.context().close();
  });

  t.test('an identity policy\'s rules, versions and dry run on a 390 px screen: the merge with the rule that made it', async (t) => {
    const page = await openConsole(f, 'admin', '/ontology', { viewport: { width: 390, height: 844 } });
    await page.getByRole('button', { name: 'Menu' }).waitFor();
    await page.getByRole('button', { name: 'Open identity policy light-contacts' }).click();
    await page.getByRole('heading', { name: 'Identity policy light-contacts' }).waitFor();
    t.same(await rowsOf(page, 'Rules of light-contacts', 4), [['1', 'same_email', 'normalized', 'email (email)']], 'its rule');
    t.same(await rowsOf(page, 'Versions of light-contacts', 1), [['1']]);
    await page.getByLabel('Dataset', { exact: true }).selectOption('raw.acme.lights');
    t.equal(await page.getByLabel('Column naming each record').inputValue(), 'id', 'records named by the primary key');
    await page.getByRole('button', { name: 'Run dry run' }).click();
    await announced(page, 'Dry run: 1 merges in 3 records');
    t.same(await rowsOf(page, 'Merges', 3), [['L1', 'L2', 'same_email']], 'the two spellings of one address, merged by same_email');
    await page.getByText('2 records: L1, L2').waitFor();
    await checkPage(t, page, 'ontology-dry-run-390');
    await page.context().close();
  });
}
