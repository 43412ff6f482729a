// The Forms section in real Chromium, signed in as acme's admin: a
// definition created and built in Form.io's builder (a required text field
// added through the builder's own sidebar, set up in its dialog), saved as
// a new published version; its preview drawn by Form.io's renderer refusing
// the empty required field as the server does; a use case whose binding is
// made in the bindings editor (saving without it is refused, naming the
// required field), its hydration preview; a submission with its object.
import t from 'tap';
import { axeViolations, browserMissing, consoleFixture, openConsole, screenshot, type ConsolePage } from './helpers.ts';

const missing = browserMissing();
if (missing) {
  t.test(`forms section browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  const f = await consoleFixture(t);

  const checkPage = async (t: { same: (a: unknown, b: unknown, m: string) => void }, page: ConsolePage, name: string) => {
    t.same(await page.getByRole('heading', { level: 1 }).allInnerTexts(), ['Forms'], `${name}: one h1`);
    t.same(await axeViolations(page), [], `${name}: axe finds nothing`);
    t.same(page.errors, [], `${name}: no page error`);
    await screenshot(page, name);
  };

  const section = (page: ConsolePage) => page.locator('console-section-forms');

  t.test('a definition built in the builder, saved, published and previewed', async (t) => {
    const page = await openConsole(f, 'admin', '/forms');
    await page.getByRole('heading', { name: 'Definitions', level: 2 }).waitFor();
    await page.getByLabel('Name').fill('Street light report');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Street light report', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Open the builder' }).click();

    // The builder's sidebar: focus Text Field and press Enter (its keyboard way of adding), as a person would.
    const textField = page.locator('[data-type="textfield"][ref="sidebar-component"]').first();
    await textField.focus();
    await page.keyboard.press('Enter');
    const dialog = page.locator('.formio-dialog');
    await dialog.getByRole('textbox', { name: 'Label' }).first().fill('Full name');
    await dialog.getByRole('tab', { name: 'Validation' }).click();
    await dialog.getByRole('checkbox', { name: 'Required' }).check();
    await screenshot(page, 'forms-builder-dialog');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await checkPage(t, page, 'forms-builder');
    await page.getByRole('button', { name: 'Save as a new version' }).click();
    await page.getByRole('button', { name: 'Publish version 1' }).waitFor();

    const list = await f.tp.request({ url: '/api/admin/forms/definitions', token: f.tokens.admin, tenant: 'acme' });
    const definition = list.body.items[0];
    t.equal(definition.latest_version, 2, 'the builder saved version 2, the published one');
    const v2 = await f.tp.request({ url: `/api/admin/forms/definitions/${definition.id}/versions/2`, token: f.tokens.admin, tenant: 'acme' });
    t.match(v2.body.schema.components, [{ type: 'textfield', key: String, label: 'Full name', validate: { required: true } }]);

    await page.getByRole('button', { name: 'Preview version 2' }).click();
    const name = page.getByRole('textbox', { name: /Full name/ });
    await name.waitFor();
    await page.getByRole('button', { name: 'Check as a submission' }).click();
    await section(page).getByText('The server refuses this submission:').waitFor();
    t.ok(await page.locator('.console-formio').getByText('Full name is required').first().isVisible(), 'Form.io\'s own error at the field');
    t.match(await section(page).getByRole('status').innerText(), /: Full name is required/, 'the server refuses it the same way');
    await checkPage(t, page, 'forms-preview');
    await name.fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Check as a submission' }).click();
    await section(page).getByText('The server accepts this submission.').waitFor();
    await page.context().close();
  });

  t.test('a use case bound in the editor, refused while a required field is unbound, its hydration preview and a submission', async (t) => {
    const auth = { token: f.tokens.admin, tenant: 'acme' };
    const type = await f.tp.request({ method: 'POST', url: '/api/backoffice/occurrence-types/', ...auth, payload: { name: 'Pothole', code: 'pothole', form_schema: { version: 'v0', dynamic_fields: [] } } });
    t.equal(type.status, 201, JSON.stringify(type.body));
    const definition = await f.tp.request({
      method: 'POST', url: '/api/admin/forms/definitions', ...auth,
      payload: { name: 'Pothole report', schema: { display: 'form', components: [
        { type: 'textfield', key: 'title', label: 'Title', input: true, validate: { required: true } },
        { type: 'textfield', key: 'where', label: 'Where (lat, lon)', input: true },
      ] } },
    });
    t.equal(definition.status, 201);

    const page = await openConsole(f, 'admin', '/forms');
    await page.getByRole('button', { name: 'Use cases' }).click();
    await page.getByRole('button', { name: 'New use case' }).click();
    await page.getByRole('heading', { name: 'New use case', level: 2 }).waitFor().catch(async (error) => { await screenshot(page, 'forms-use-case-failed'); t.same(page.errors, []); throw error; });
    await page.getByRole('textbox', { name: /^Name/ }).fill('Report a pothole');
    await page.getByRole('combobox', { name: 'Form', exact: true }).selectOption({ label: 'Pothole report' });
    await page.getByLabel('Occurrence type').selectOption({ label: 'Pothole' });
    await page.getByRole('group', { name: 'Location' }).waitFor();
    await page.getByRole('button', { name: 'Save the use case' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'Not saved' });
    await refusal.waitFor();
    t.match(await refusal.innerText(), /Required target fields have nothing to fill them: location/, 'saving with the location unbound is refused, naming it');
    t.equal((await f.tp.request({ url: '/api/admin/forms/use-cases', ...auth })).body.total, 0, 'nothing saved');

    const location = page.getByRole('group', { name: 'Location' });
    for (const coordinate of ['latitude', 'longitude']) {
      await location.getByRole('button', { name: 'Add a binding to Location' }).click();
      const n = await location.getByLabel('Form field for Location').count();
      await location.getByLabel('Form field for Location').nth(n - 1).selectOption('where');
      await location.getByLabel('Transform for Location').nth(n - 1).selectOption('GEO_PARSE');
      await location.getByLabel('Coordinate for Location').nth(n - 1).selectOption(coordinate);
    }
    await page.getByRole('button', { name: 'Save the use case' }).click();
    await page.getByRole('heading', { name: 'Report a pothole', level: 2 }).waitFor();
    const saved = (await f.tp.request({ url: '/api/admin/forms/use-cases', ...auth })).body.items[0];
    const bindings = await f.tp.request({ url: `/api/admin/forms/use-cases/${saved.id}/bindings`, ...auth });
    t.match(bindings.body.bindings, [
      { source_field_path: 'where', target_field_path: 'location', transform: 'GEO_PARSE', transform_params: { component: 'latitude' } },
      { source_field_path: 'where', target_field_path: 'location', transform: 'GEO_PARSE', transform_params: { component: 'longitude' } },
    ]);

    await page.getByLabel('Sample payload (JSON)').fill(JSON.stringify({ title: 'Deep hole', where: '38.72, -9.14' }));
    await page.getByRole('button', { name: 'Preview the hydration' }).click();
    await page.getByRole('heading', { name: 'The object it would create' }).waitFor();
    t.match(await section(page).getByRole('status').innerText(), /Deep hole/, 'the occurrence it would create');
    await checkPage(t, page, 'forms-use-case');

    const sent = await f.tp.request({ method: 'POST', url: `/api/forms/use-cases/${saved.id}/submissions`, tenant: 'acme', payload: { payload: { title: 'Real hole', where: '38.7, -9.1' } } });
    t.equal(sent.status, 201, JSON.stringify(sent.body));
    await page.getByRole('button', { name: 'Submissions' }).click();
    await page.getByRole('heading', { name: 'Submissions', level: 2 }).waitFor();
    await page.getByRole('button', { name: /^Open the submission of/ }).click();
    await page.getByRole('heading', { name: 'Hydrated object' }).waitFor();
    const detail = await page.getByRole('region', { name: /^Submission / }).innerText();
    t.match(detail, /hydrated/, 'its hydration status');
    t.match(detail, /Real hole[\s\S]*OC-\d{4}-\d+/, 'its data and the occurrence it created');
    await checkPage(t, page, 'forms-submissions');
    await page.context().close();
  });
}
