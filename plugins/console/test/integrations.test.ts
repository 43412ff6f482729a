// The Integrations section in real Chromium, signed in as acme's admin: an
// OpenAPI description served by a loopback API is previewed (nothing
// imported yet) and imported, its functions listed, and one called through
// the form generated from its JSON Schema, the loopback API receiving the
// arguments and the answer shown; an uploaded file is previewed too.
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { axeViolations, browserMissing, consoleFixture, openConsole, screenshot, type ConsolePage } from './helpers.ts';

const missing = browserMissing();
if (missing) {
  t.test(`integrations section browser tests: ${missing}`, { skip: missing }, async () => {});
} else {
  const received: { method: string; url: string; body: unknown }[] = [];
  const readBody = async (request: IncomingMessage) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    return text ? JSON.parse(text) : null;
  };
  const api = createServer(async (request, response) => {
    const body = await readBody(request);
    if (request.url === '/openapi.json') {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(description(origin)));
      return;
    }
    received.push({ method: request.method!, url: request.url!, body });
    response.statusCode = request.method === 'POST' ? 201 : 200;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ id: 7, ...(body as object) }));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => api.close(() => resolve())));
  const origin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;

  const f = await consoleFixture(t, { INTEGRATIONS_ALLOW_PRIVATE_NETWORKS: 'true' });
  const admin = f.tokens.admin;

  const checkPage = async (t: { same: (a: unknown, b: unknown, m: string) => void }, page: ConsolePage, name: string) => {
    t.same(await page.getByRole('heading', { level: 1 }).allInnerTexts(), ['Integrations'], `${name}: one h1`);
    t.same(await axeViolations(page), [], `${name}: axe finds nothing`);
    t.same(page.errors, [], `${name}: no page error`);
    await screenshot(page, name);
  };

  t.test('preview, import, list the functions, call one through its generated form', async (t) => {
    const page = await openConsole(f, 'admin', '/integrations');
    await page.getByRole('heading', { name: 'Imported specs' }).waitFor();
    await page.getByText('Imported specs: none yet').waitFor();
    await checkPage(t, page, 'integrations-empty');

    await page.getByLabel('Description URL').fill(`${origin}/openapi.json`);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('pets');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('heading', { name: 'Preview of pets' }).waitFor();
    const preview = page.getByRole('table', { name: 'Functions' });
    t.same(await preview.getByRole('row', { name: /pets_create_pet/ }).getByRole('cell').allInnerTexts(), ['create', 'pets_create_pet', 'POST /pets', 'Add a pet']);
    t.same((await f.tp.request({ url: '/api/admin/integrations/specs', token: admin, tenant: 'acme' })).body.items, [], 'a preview imports nothing');
    await checkPage(t, page, 'integrations-preview');

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: 'Functions of pets' }).waitFor();
    t.equal(await page.getByRole('radio', { name: 'A URL' }).isChecked(), true, 'the import form is ready for the next one');
    const specs = await f.tp.request({ url: '/api/admin/integrations/specs', token: admin, tenant: 'acme' });
    t.same(specs.body.items.map((s: { name: string; function_count: number }) => [s.name, s.function_count]), [['pets', 2]], 'REST: imported');
    const functions = page.getByRole('table', { name: 'Functions of pets' });
    // The heading shows before the functions' list has loaded.
    await functions.getByRole('row', { name: /pets_get_pet/ }).waitFor();
    t.same(await functions.getByRole('row').locator('td:first-child').allInnerTexts(), ['pets_create_pet', 'pets_get_pet']);

    await page.getByRole('button', { name: 'Call pets_create_pet' }).click();
    await page.getByRole('heading', { name: 'Call pets_create_pet' }).waitFor();
    const form = page.locator('console-schema-form');
    await form.getByRole('textbox', { name: 'name', exact: true }).fill('Rex');
    await form.getByRole('combobox', { name: 'kind', exact: true }).selectOption('dog');
    await form.getByRole('button', { name: 'Add to tags' }).click();
    await form.getByRole('textbox', { name: 'tags 1', exact: true }).fill('good');
    await form.getByRole('checkbox', { name: 'vaccinated', exact: true }).check();
    await form.getByRole('button', { name: 'Call', exact: true }).click();
    await page.getByRole('heading', { name: 'Response' }).waitFor();
    t.same(received.at(-1), { method: 'POST', url: '/pets', body: { name: 'Rex', kind: 'dog', tags: ['good'], vaccinated: true } }, 'the API got the arguments from the form');
    t.match(await page.getByRole('region', { name: 'Response' }).innerText(), /"name": "Rex"/, 'the answer is shown');
    t.equal(await page.locator('console-status', { hasText: /^201$/ }).count(), 1, 'with its status');
    t.equal(await form.getByRole('textbox', { name: 'name', exact: true }).inputValue(), 'Rex', 'the form keeps its values after the call');
    await checkPage(t, page, 'integrations-call');

    await page.getByRole('button', { name: 'Call pets_get_pet' }).click();
    await page.getByRole('heading', { name: 'Call pets_get_pet' }).waitFor();
    await form.getByRole('button', { name: 'Call', exact: true }).click();
    t.equal(await form.getByRole('spinbutton', { name: 'id', exact: true }).evaluate((input: HTMLInputElement) => input.validity.valueMissing), true, 'a required argument left empty is flagged');
    t.equal(received.length, 1, 'and nothing is sent');
    await form.getByRole('spinbutton', { name: 'id', exact: true }).fill('7');
    await form.getByRole('button', { name: 'Call', exact: true }).click();
    await page.getByRole('heading', { name: 'Response' }).waitFor();
    t.same(received.at(-1), { method: 'GET', url: '/pets/7', body: null }, 'the path argument reached the API');
    await page.context().close();
  });

  t.test('an uploaded description is previewed', async (t) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'console-openapi-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'pets.json');
    writeFileSync(file, JSON.stringify(description(origin)));
    const page = await openConsole(f, 'admin', '/integrations', { viewport: { width: 390, height: 844 } });
    await page.getByRole('radio', { name: 'A file' }).check();
    await page.getByLabel('Description file (JSON or YAML)').setInputFiles(file);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('pets-upload');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('heading', { name: 'Preview of pets-upload' }).waitFor();
    t.match(await page.getByRole('table', { name: 'Functions' }).innerText(), /pets_upload_get_pet/);
    await checkPage(t, page, 'integrations-upload-narrow');
    await page.context().close();
  });
}

function description(server: string) {
  return {
    openapi: '3.0.3',
    info: { title: 'Pets', version: '1.0.0' },
    servers: [{ url: server }],
    paths: {
      '/pets/{id}': {
        get: {
          operationId: 'getPet', summary: 'Read a pet',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: { 200: { description: 'The pet' } },
        },
      },
      '/pets': {
        post: {
          operationId: 'createPet', summary: 'Add a pet',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object', required: ['name'],
                  properties: {
                    name: { type: 'string', description: 'What it answers to' },
                    kind: { type: 'string', enum: ['cat', 'dog'] },
                    tags: { type: 'array', items: { type: 'string' } },
                    vaccinated: { type: 'boolean' },
                  },
                },
              },
            },
          },
          responses: { 201: { description: 'Added' } },
        },
      },
    },
  };
}
