// The document formats and shapes an import must handle: Swagger 2.0 YAML
// (body, formData, csv arrays, apiKey in the query), OpenAPI 3.1, circular
// $refs, remote $refs (same origin read, other hosts refused), the real
// Discord (3.1) and Netlify (2.0) descriptions from
// test/fixtures/integrations/openapi/, and a generated 2,000-operation spec.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT_DIR } from '../../../core/paths.ts';
import { largeSpec } from '../../../test/fixtures/integrations/large-spec.ts';
import { circular, swaggerYaml, withRemoteRefs } from '../../../test/fixtures/integrations/specs.ts';
import { callFunction, imported, importSpec, integrationsFixture, startApiServer } from './helpers.ts';

const REAL = path.resolve(ROOT_DIR, 'test/fixtures/integrations/openapi');

t.test('Swagger 2.0 YAML: body, formData, csv query arrays and an apiKey in the query', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  api.serve('/swagger.yaml', swaggerYaml(new URL(api.url).host), 'application/yaml');
  const done = await imported(tp, token, { source: `${api.url}/swagger.yaml`, name: 'legacy', prefix: 'inv', auth_value: 'qk-1' });
  t.match(done.spec, { format: 'swagger-2.0', title: 'Legacy inventory', base_url: `${api.url}/v2`, auth: { scheme: 'apiKey', query_param: 'api_key' } });
  const byName = Object.fromEntries(done.functions.map((f: { name: string }) => [f.name, f]));
  t.match(byName.inv_list_items.parameters, { ids: { location: 'query', type: 'array' }, q: { location: 'query', required: true } });
  t.match(byName.inv_create_item.parameters, { sku: { location: 'body', required: true }, quantity: { location: 'body' } });
  t.match(byName.inv_label_item.parameters, { itemId: { location: 'path' }, label: { location: 'body', required: true }, color: { location: 'body' } });

  await callFunction(tp, token, 'inv_list_items', { q: 'bolt', ids: [1, 2] });
  let wire = api.calls().at(-1)!;
  t.equal(wire.path, '/v2/items');
  t.equal(wire.query.get('ids'), '1,2', 'collectionFormat csv (the 2.0 default)');
  t.equal(wire.query.get('q'), 'bolt');
  t.equal(wire.query.get('api_key'), 'qk-1');

  await callFunction(tp, token, 'inv_create_item', { sku: 'B-1', quantity: 4, price: null });
  wire = api.calls().at(-1)!;
  t.same(wire.body, { sku: 'B-1', quantity: 4, price: null }, 'the in: body schema\'s properties are JSON body fields');

  await callFunction(tp, token, 'inv_label_item', { itemId: 7, label: 'fragile', color: 'red' });
  wire = api.calls().at(-1)!;
  t.equal(wire.path, '/v2/items/7/label');
  t.match(wire.headers['content-type'], /application\/x-www-form-urlencoded/);
  t.same(wire.body, { label: 'fragile', color: 'red' });
  t.equal((await callFunction(tp, token, 'inv_label_item', { itemId: 7, label: 'x', color: 'blue' })).status, 400, 'enum enforced');
});

t.test('circular $refs import, and the recursive body is sent as given', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  const done = await imported(tp, token, { spec: circular(api.url), name: 'trees' });
  t.equal(done.spec.function_count, 2);
  const plant = done.functions.find((f: { name: string }) => f.name === 'trees_plant_tree');
  t.match(plant.parameters, { name: { location: 'body', required: true }, children: { location: 'body', type: 'array' } });
  const tree = { name: 'oak', children: [{ name: 'branch', children: [{ name: 'twig', children: [] }] }] };
  const planted = await callFunction(tp, token, 'trees_plant_tree', tree);
  t.equal(planted.status, 200, JSON.stringify(planted.body));
  t.same(api.calls().at(-1)!.body, tree);
  const person = { name: 'Ada', employer: { title: 'Engines', ceo: { name: 'Charles' } } };
  t.equal((await callFunction(tp, token, 'trees_add_person', person)).status, 200);
  t.same(api.calls().at(-1)!.body, person);
});

t.test('remote $refs: the same origin is read, another host is refused with a warning', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  const other = await startApiServer(t);
  api.serve('/schemas.json', { Order: { type: 'object', required: ['sku'], properties: { sku: { type: 'string' }, qty: { type: 'integer' } } } });
  other.serve('/schemas.json', { Refund: { type: 'object', properties: { amount: { type: 'number' } } } });
  api.serve('/openapi.json', withRemoteRefs(api.url, `${api.url}/schemas.json`, `${other.url}/schemas.json`));

  const preview = await importSpec(tp, token, { source: `${api.url}/openapi.json`, name: 'split' });
  t.equal(preview.status, 200, JSON.stringify(preview.body));
  const byName = Object.fromEntries(preview.body.functions.map((f: { name: string }) => [f.name, f]));
  t.match(byName.split_create_order.parameters, { sku: { location: 'body', required: true }, qty: { location: 'body' } });
  t.same(Object.keys(byName.split_create_refund.parameters), [], 'an unreadable (other host) body $ref yields no body parameters');
  t.ok(preview.body.warnings.some((w: { message: string }) => /refused/.test(w.message)), 'the refusal is a warning in the preview');
  t.same(other.requests, [], 'the other host was never contacted');

  // Inline documents have no origin: no remote $ref is read.
  const inline = await importSpec(tp, token, { spec: withRemoteRefs(api.url, `${api.url}/schemas.json`, `${other.url}/schemas.json`), name: 'split2' });
  t.equal(inline.status, 200);
  t.same(Object.keys(inline.body.functions.find((f: { name: string }) => f.name === 'split2_create_order').parameters), []);
});

t.test('a 2,000-operation spec is imported', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  const document = largeSpec(2000, api.url);
  const preview = await importSpec(tp, token, { spec: document, name: 'big', prefix: 'big' });
  t.equal(preview.status, 200);
  t.equal(preview.body.functions.length, 2000, 'the preview lists every function');
  const done = await imported(tp, token, { spec: document, name: 'big', prefix: 'big', auth_value: 'tok' });
  t.equal(done.spec.function_count, 2000);
  const listed = await tp.request({ url: '/api/admin/integrations/functions?source=big&limit=500&skip=1500', token });
  t.equal(listed.body.total, 2000);
  t.equal(listed.body.items.length, 500);
  const called = await callFunction(tp, token, 'big_get_resource0', { id: 'r1' });
  t.match(called.body.result, { status: 200, body: { path: '/resource0/r1' } });
  t.equal(api.calls().at(-1)!.headers.authorization, 'Bearer tok');
  const again = await tp.request({ method: 'POST', url: `/api/admin/integrations/specs/${done.spec.id}/sync`, token });
  t.equal(again.body.status, 'skipped');
});

t.test('real descriptions: Discord (OpenAPI 3.1 JSON) and Netlify (Swagger 2.0 YAML)', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  api.serve('/discord.json', readFileSync(path.join(REAL, 'discord-openapi-3.1.json'), 'utf8'), 'application/json');
  const discord = await importSpec(tp, token, { source: `${api.url}/discord.json`, name: 'discord', prefix: 'dc', base_url: api.url });
  t.equal(discord.status, 200, JSON.stringify(discord.body).slice(0, 500));
  t.equal(discord.body.spec.format, 'openapi-3.1');
  t.equal(discord.body.functions.length + discord.body.skipped.length, 242, 'every one of the 242 operations is accounted for');
  t.ok(discord.body.functions.length >= 240);
  t.match(discord.body.spec.auth, { scheme: 'apiKey', header: 'Authorization' });
  const names = new Set(discord.body.functions.map((f: { name: string }) => f.name));
  t.equal(names.size, discord.body.functions.length, 'names are unique');
  for (const name of names) t.ok(/^[a-z][a-z0-9_]{0,63}$/.test(name as string), `${name} is a valid function name`);
  const stored = await imported(tp, token, { source: `${api.url}/discord.json`, name: 'discord', prefix: 'dc', base_url: api.url, auth_value: 'Bot abc' });
  t.equal(stored.spec.function_count, discord.body.functions.length);
  const getUser = stored.functions.find((f: { operation: string }) => f.operation === 'GET /users/{user_id}');
  t.ok(getUser, 'GET /users/{user_id} is a function');
  const called = await callFunction(tp, token, getUser.name, { user_id: '42' });
  t.match(called.body.result, { status: 200, body: { path: '/users/42' } });
  t.equal(api.calls().at(-1)!.headers.authorization, 'Bot abc');

  const upload = readFileSync(path.join(REAL, 'netlify-swagger-2.0.yml'));
  const boundary = 'netlify-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nnetlify\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="base_url"\r\n\r\n${api.url}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="netlify.yml"\r\nContent-Type: application/yaml\r\n\r\n`),
    upload,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const netlify = await tp.request({
    method: 'POST', url: '/api/admin/integrations/openapi/import', token, payload: body,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  t.equal(netlify.status, 200, JSON.stringify(netlify.body).slice(0, 500));
  t.equal(netlify.body.dry_run, true);
  t.equal(netlify.body.spec.format, 'swagger-2.0');
  t.equal(netlify.body.functions.length + netlify.body.skipped.length, 174, 'every one of the 174 operations is accounted for');
  t.ok(netlify.body.functions.length >= 170);
  t.equal((await tp.request({ url: '/api/admin/integrations/specs', token })).body.total, 1, 'the dry run stored nothing');
});
