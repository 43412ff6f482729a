// import-openapi over REST: the dry-run preview (the default) changes
// nothing; a real import stores the spec and one function per operation
// (names, descriptions, parameters with locations, both body rules) and
// announces each with definition.created; re-importing previews and applies
// the difference; filters, renames, conflicts and bad input.
import t from 'tap';
import YAML from 'yaml';
import { petstore } from '../../../test/fixtures/integrations/specs.ts';
import { tenantWithAdmin } from 'agent-platform/sdk/testing';
import { callFunction, importSpec, imported, integrationsFixture, recentEvents, startApiServer } from './helpers.ts';

t.test('a dry run (the default) previews every function and changes nothing', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  api.serve('/openapi.json', petstore(api.url));

  const preview = await importSpec(tp, token, { source: `${api.url}/openapi.json`, name: 'pets', prefix: 'pet' });
  t.equal(preview.status, 200);
  t.equal(preview.body.dry_run, true);
  t.match(preview.body.spec, { id: null, name: 'pets', prefix: 'pet_', format: 'openapi-3.0', title: 'Pet store', source: `${api.url}/openapi.json`, base_url: api.url });
  t.match(preview.body.spec.content_hash, /^sha256:[0-9a-f]{64}$/);
  t.match(preview.body.spec.auth, { scheme: 'apiKey', header: 'X-API-Key', value_set: false, inferred: true });
  t.same(preview.body.changes, { create: 7, update: 0, unchanged: 0, remove: 0 });
  const byName = Object.fromEntries(preview.body.functions.map((fn: { name: string }) => [fn.name, fn]));
  t.same(Object.keys(byName).sort(), [
    'pet_create_pet', 'pet_delete_pet', 'pet_get_pet', 'pet_get_status', 'pet_list_pets', 'pet_put_pets_by_pet_id_notes', 'pet_upload_photo',
  ]);
  t.match(byName.pet_list_pets, {
    action: 'create', operation: 'GET /pets', operation_id: 'listPets', description: 'List pets',
    parameters: { limit: { location: 'query', required: false, type: 'integer' }, tags: { location: 'query', type: 'array' }, status: { location: 'query' } },
  });
  t.match(byName.pet_get_pet.parameters, { petId: { location: 'path', required: true }, x_request_id: { location: 'header', original_name: 'X-Request-Id' } });
  t.match(byName.pet_create_pet.parameters, { name: { location: 'body', required: true, type: 'string' }, tag: { location: 'body', required: false }, age: { location: 'body' } });
  t.notOk('id' in byName.pet_create_pet.parameters, 'read-only properties are not arguments');
  t.match(byName.pet_put_pets_by_pet_id_notes, {
    operation: 'PUT /pets/{petId}/notes', description: 'Replace a pet\'s notes', free_form_body: true,
    parameters: { petId: { location: 'path' }, version: { location: 'query' } },
  }, 'rule 1: additionalProperties without properties makes a free-form body');
  t.same(Object.keys(byName.pet_upload_photo.parameters), ['petId'], 'rule 2: an unresolvable body $ref yields no body parameters');
  t.match(byName.pet_upload_photo.warnings, [/request body schema \(\$ref\) could not be resolved/]);
  t.ok(preview.body.warnings.some((w: { operation?: string; message: string }) => w.operation === 'POST /pets/{petId}/photos' && /\$ref not resolved/.test(w.message)));

  const specs = await tp.request({ url: '/api/admin/integrations/specs', token });
  t.same(specs.body.items, [], 'no spec was stored');
  const functions = await tp.request({ url: '/api/admin/integrations/functions', token });
  t.equal(functions.body.total, 0, 'no function was stored');
  const registry = await tp.request({ url: '/api/admin/functions', token });
  t.notOk(registry.body.items.some((fn: { source: string }) => fn.source === 'pets'));
  t.same((await recentEvents(tp, token)).filter((e) => e.source === '/integrations'), [], 'no event was emitted');
  t.same(await callFunction(tp, token, 'pet_list_pets').then((r) => r.status), 404);
});

t.test('an explicit no-dry-run imports: spec, functions with parameters, definition.created events', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  api.serve('/openapi.json', petstore(api.url));

  const done = await importSpec(tp, token, { source: `${api.url}/openapi.json`, name: 'pets', prefix: 'pet_', dry_run: false });
  t.equal(done.status, 201);
  t.equal(done.body.dry_run, false);
  t.match(done.body.spec, { id: /^[0-9a-f-]{36}$/, name: 'pets', status: 'active', function_count: 7, source_kind: 'url', last_sync_result: 'imported' });
  t.same(done.body.changes, { create: 7, update: 0, unchanged: 0, remove: 0 });

  const specs = await tp.request({ url: '/api/admin/integrations/specs', token });
  t.equal(specs.body.total, 1);
  t.match(specs.body.items[0], { id: done.body.spec.id, name: 'pets', content_hash: done.body.spec.content_hash, status: 'active', function_count: 7 });

  const list = await tp.request({ url: '/api/admin/integrations/functions?source=pets', token });
  t.equal(list.body.total, 7);
  const one = await tp.request({ url: '/api/admin/integrations/functions/pet_create_pet', token });
  t.equal(one.status, 200);
  t.match(one.body, {
    name: 'pet_create_pet', source: 'pets', operation: 'POST /pets', method: 'POST', path: '/pets', description: 'Create a pet', status: 'active', version: 1,
    parameters: { name: { location: 'body', required: true, schema: { type: 'string', maxLength: 50 } }, tag: { location: 'body', schema: { type: ['string', 'null'] } } },
    auth: { scheme: 'apiKey', header: 'X-API-Key', value_set: false },
  });
  t.same(one.body.json_schema.required, ['name']);
  t.equal(one.body.json_schema.additionalProperties, false);

  const registry = await tp.request({ url: '/api/admin/functions', token });
  const listed = registry.body.items.find((fn: { name: string }) => fn.name === 'pet_list_pets');
  t.match(listed, { source: 'pets', description: 'List pets', parameters: { type: 'object', properties: { limit: { type: 'integer' } } } });
  t.notOk('default' in listed.parameters.properties.limit, 'a default is described, not applied');
  t.match(listed.parameters.properties.limit.description, /default: 20/);

  const events = (await recentEvents(tp, token)).filter((e) => e.source === '/integrations');
  t.equal(events.length, 7);
  t.ok(events.every((e) => e.type === 'definition.created'));
  t.match(events.find((e) => e.data.name === 'pet_get_pet')!.data, {
    definition_type: 'function', name: 'pet_get_pet', version: 1, spec_id: done.body.spec.id, spec_name: 'pets', operation: 'GET /pets/{petId}',
  });

  const call = await callFunction(tp, token, 'pet_list_pets', { limit: 5 });
  t.equal(call.status, 200);
  t.match(call.body.result, { status: 200, ok: true, body: { method: 'GET', path: '/pets', query: 'limit=5' } });
});

t.test('re-importing the same name previews and applies the difference', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  const doc = petstore(api.url);
  api.serve('/openapi.json', doc);
  await imported(tp, token, { source: `${api.url}/openapi.json`, name: 'pets', prefix: 'pet' });

  const changed = structuredClone(doc) as any;
  changed.paths['/pets'].get.summary = 'List all the pets';
  delete changed.paths['/status'];
  changed.paths['/owners'] = { get: { operationId: 'listOwners', summary: 'List owners', responses: { 200: { description: 'ok' } } } };
  api.serve('/openapi.json', changed);

  const preview = await importSpec(tp, token, { source: `${api.url}/openapi.json`, name: 'pets', prefix: 'pet' });
  t.equal(preview.status, 200);
  t.same(preview.body.changes, { create: 1, update: 1, unchanged: 5, remove: 1 });
  const actions = Object.fromEntries(preview.body.functions.map((fn: { name: string; action: string; changed_fields?: string[] }) => [fn.name, [fn.action, fn.changed_fields]]));
  t.same(actions.pet_list_pets, ['update', ['summary', 'description']]);
  t.same(actions.pet_list_owners, ['create', undefined]);
  t.same(actions.pet_get_status, ['remove', ['status']]);
  t.match(preview.body.existing, { id: preview.body.spec.id });

  const applied = await importSpec(tp, token, { source: `${api.url}/openapi.json`, name: 'pets', prefix: 'pet', dry_run: false });
  t.equal(applied.status, 200, 're-import of an existing spec answers 200');
  t.same(applied.body.changes, { create: 1, update: 1, unchanged: 5, remove: 1 });
  const removed = await tp.request({ url: '/api/admin/integrations/functions/pet_get_status', token });
  t.match(removed.body, { status: 'removed', removed_at: /\d{4}-/ });
  const updated = await tp.request({ url: '/api/admin/integrations/functions/pet_list_pets', token });
  t.match(updated.body, { description: 'List all the pets', version: 2 });
  const types = (await recentEvents(tp, token)).filter((e) => e.source === '/integrations').map((e) => `${e.type}:${e.data.name}`);
  t.ok(types.includes('definition.updated:pet_list_pets'));
  t.ok(types.includes('definition.updated:pet_get_status'));
  t.ok(types.includes('definition.created:pet_list_owners'));
});

t.test('include/exclude by tag, path glob and operation, name overrides, and name conflicts', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  api.serve('/openapi.json', petstore(api.url));
  const source = `${api.url}/openapi.json`;

  const byTag = await importSpec(tp, token, { source, name: 'pets', prefix: 'p', include_tags: ['pets'], exclude_operations: 'uploadPhoto' });
  t.same(byTag.body.functions.map((f: { name: string }) => f.name).sort(), ['p_create_pet', 'p_get_pet', 'p_list_pets']);
  t.match(byTag.body.skipped, [{ operation: 'DELETE /pets/{petId}', reason: 'not included' }]);
  t.ok(byTag.body.skipped.some((s: { operation: string; reason: string }) => s.operation === 'POST /pets/{petId}/photos' && s.reason === 'excluded'));

  const byPath = await importSpec(tp, token, { source, name: 'pets', prefix: 'p', include_paths: '/pets/*', exclude_paths: ['/pets/*/photos'] });
  t.same(byPath.body.functions.map((f: { name: string }) => f.name).sort(), ['p_delete_pet', 'p_get_pet']);
  const deep = await importSpec(tp, token, { source, name: 'pets', prefix: 'p', include_paths: ['/pets/**'] });
  t.equal(deep.body.functions.length, 4, '** crosses segments');

  const renamed = await importSpec(tp, token, {
    source, name: 'pets', prefix: 'p', include_tags: 'pets', function_names: { listPets: 'pets_index', 'GET /pets/{petId}': 'pet_show', nope: 'x_y' },
  });
  const names = renamed.body.functions.map((f: { name: string }) => f.name).sort();
  t.ok(names.includes('pets_index') && names.includes('pet_show'), 'overrides are used as given');
  t.ok(renamed.body.warnings.some((w: { message: string }) => /no operation matches "nope"/.test(w.message)));

  await imported(tp, token, { source, name: 'pets', prefix: 'shop', include_tags: 'pets' });
  const clash = await importSpec(tp, token, { source, name: 'pets-copy', prefix: 'shop', include_operations: 'listPets,getPet' });
  t.same(clash.body.conflicts, [{ name: 'shop_get_pet', held_by: 'pets' }, { name: 'shop_list_pets', held_by: 'pets' }]);
  const refused = await importSpec(tp, token, { source, name: 'pets-copy', prefix: 'shop', include_operations: 'listPets,getPet', dry_run: false });
  t.equal(refused.status, 409);
  t.equal(refused.body.code, 'FUNCTION_NAME_CONFLICT');
  t.equal(refused.body.conflicts.length, 2);
  const platformClash = await importSpec(tp, token, {
    source, name: 'pets-copy', prefix: '', include_operations: 'listPets', function_names: { listPets: 'http_request' }, dry_run: false,
  });
  t.equal(platformClash.status, 409, 'an imported function may not shadow a platform function');
  t.same(platformClash.body.conflicts, [{ name: 'http_request', held_by: 'platform' }]);
});

t.test('inline documents (object, YAML text) and multipart uploads', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  const inline = await importSpec(tp, token, { spec: petstore(api.url), name: 'inline', dry_run: false });
  t.equal(inline.status, 201);
  t.match(inline.body.spec, { source_kind: 'inline', source: null, function_count: 7, prefix: 'inline_' });

  const yaml = `openapi: 3.0.0
info: { title: Tiny, version: "1" }
servers: [{ url: "${api.url}" }]
paths:
  /ping:
    get:
      operationId: ping
      summary: Ping
      responses: { "200": { description: ok } }
`;
  const fromYaml = await importSpec(tp, token, { spec: yaml, name: 'tiny', dry_run: false });
  t.equal(fromYaml.status, 201);
  t.same(fromYaml.body.functions.map((f: { name: string }) => f.name), ['tiny_ping']);

  const boundary = '----integrations-test';
  const body = [
    `--${boundary}`, 'Content-Disposition: form-data; name="name"', '', 'uploaded',
    `--${boundary}`, 'Content-Disposition: form-data; name="dry_run"', '', 'false',
    `--${boundary}`, 'Content-Disposition: form-data; name="include_operations"', '', 'ping',
    `--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="tiny.yaml"', 'Content-Type: application/yaml', '', yaml,
    `--${boundary}--`, '',
  ].join('\r\n');
  const upload = await tp.request({
    method: 'POST', url: '/api/admin/integrations/openapi/import', token, payload: body,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  t.equal(upload.status, 201, JSON.stringify(upload.body));
  t.match(upload.body.spec, { name: 'uploaded', source_kind: 'file', function_count: 1 });
  const ping = await callFunction(tp, token, 'uploaded_ping');
  t.match(ping.body.result, { status: 200, body: { path: '/ping' } });

  // Browsers declare a .json file application/json (hapi parses that part) and a .yaml one often text/yaml.
  for (const [filename, type, text] of [['tiny.json', 'application/json', JSON.stringify(YAML.parse(yaml))], ['tiny.yml', 'text/yaml', yaml]]) {
    const typed = [
      `--${boundary}`, 'Content-Disposition: form-data; name="name"', '', `typed-${filename.replace('.', '-')}`,
      `--${boundary}`, `Content-Disposition: form-data; name="file"; filename="${filename}"`, `Content-Type: ${type}`, '', text,
      `--${boundary}--`, '',
    ].join('\r\n');
    const preview = await tp.request({
      method: 'POST', url: '/api/admin/integrations/openapi/import', token, payload: typed,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    t.equal(preview.status, 200, `${type}: ${JSON.stringify(preview.body)}`);
    t.ok(preview.body.functions.some((f: { name: string }) => f.name.endsWith('_ping')), `${type}: the preview lists the operation`);
  }
});

t.test('bad input gets a clear 4xx and stores nothing', async (t) => {
  const { tp, token, tenant } = await integrationsFixture(t);
  const api = await startApiServer(t);
  api.serve('/openapi.json', petstore(api.url));
  api.serve('/v4.json', { openapi: '4.0.0', info: { title: 'x', version: '1' }, paths: {} });
  api.serve('/broken.yaml', 'openapi: [unclosed', 'application/yaml');
  api.route((request, response) => {
    if (request.path !== '/missing.json') return false;
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    return true;
  });
  const source = `${api.url}/openapi.json`;
  const cases: [Record<string, unknown>, number, string | RegExp][] = [
    [{ name: 'x' }, 400, 'VALIDATION_FAILED'],
    [{ source, spec: {}, name: 'x' }, 400, 'VALIDATION_FAILED'],
    [{ source, name: 'x', bogus: true }, 400, 'VALIDATION_FAILED'],
    [{ source, name: 'bad name!' }, 400, 'VALIDATION_FAILED'],
    [{ source, name: 'x', auth_scheme: 'digest' }, 400, 'VALIDATION_FAILED'],
    [{ source: 'ftp://example.com/x', name: 'x' }, 400, 'VALIDATION_FAILED'],
    [{ source: `http://user:pw@127.0.0.1:1/x`, name: 'x' }, 400, 'VALIDATION_FAILED'],
    [{ source, name: 'x', auth_value: 'a', auth_credential_source: 'b' }, 400, 'VALIDATION_FAILED'],
    [{ source, name: 'x', function_names: { listPets: 'Bad-Name' } }, 400, 'VALIDATION_FAILED'],
    [{ source: `${api.url}/v4.json`, name: 'x' }, 400, 'SPEC_UNSUPPORTED'],
    [{ source: `${api.url}/broken.yaml`, name: 'x' }, 400, 'SPEC_INVALID'],
    [{ spec: { hello: 'world' }, name: 'x' }, 400, 'SPEC_INVALID'],
    [{ spec: '', name: 'x' }, 400, 'VALIDATION_FAILED'],
    [{ source: `${api.url}/missing.json`, name: 'x' }, 422, 'SPEC_FETCH_FAILED'],
    [{ source, name: 'x', auth_scheme: 'oauth2' }, 400, 'AUTH_INVALID'],
  ];
  for (const [payload, status, code] of cases) {
    const response = await importSpec(tp, token, { ...payload, dry_run: false });
    t.equal(response.status, status, `${JSON.stringify(payload)} → ${status}`);
    t.match(response.body.code, code);
    t.type(response.body.message, 'string');
  }
  const specs = await tp.request({ url: '/api/admin/integrations/specs', token });
  t.equal(specs.body.total, 0);

  const member = await tp.request({
    method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub: 'reader', display_name: 'Reader', organizations: [tenant], roles: [] },
  });
  t.equal(member.status, 201);
  const readerToken = (await tp.request({ method: 'POST', url: '/api/admin/users/reader/tokens', token: tp.adminToken })).body.access_token;
  const forbidden = await importSpec(tp, readerToken, { source, name: 'x' });
  t.equal(forbidden.status, 403, 'importing needs the admin role');
  const canRead = await tp.request({ url: '/api/admin/integrations/specs', token: readerToken });
  t.equal(canRead.status, 403, 'reading specs needs the admin role too (tenant configuration)');
  const missing = await tp.request({ url: '/api/admin/integrations/functions/no_such_fn', token });
  t.equal(missing.status, 404);
  const badSpecId = await tp.request({ url: '/api/admin/integrations/specs/not-a-uuid', token });
  t.equal(badSpecId.status, 400);
});

t.test('tenants never see each other\'s specs or functions', async (t) => {
  const { tp, token } = await integrationsFixture(t, { alias: 'tenant-a' });
  const b = await tenantWithAdmin(tp, 'tenant-b');
  const api = await startApiServer(t);
  const done = await imported(tp, token, { spec: petstore(api.url), name: 'pets', prefix: 'pet' });

  t.equal((await tp.request({ url: '/api/admin/integrations/specs', token: b.token })).body.total, 0);
  t.equal((await tp.request({ url: '/api/admin/integrations/functions', token: b.token })).body.total, 0);
  t.equal((await tp.request({ url: `/api/admin/integrations/specs/${done.spec.id}`, token: b.token })).status, 404);
  t.equal((await tp.request({ url: '/api/admin/integrations/functions/pet_list_pets', token: b.token })).status, 404);
  t.equal((await callFunction(tp, b.token, 'pet_list_pets')).status, 404);
  t.equal((await tp.request({ method: 'POST', url: `/api/admin/integrations/specs/${done.spec.id}/sync`, token: b.token })).status, 404);
  t.equal((await tp.request({ method: 'DELETE', url: `/api/admin/integrations/specs/${done.spec.id}`, token: b.token })).status, 404);
  // The same names may exist in another tenant.
  const inB = await imported(tp, b.token, { spec: petstore(api.url), name: 'pets', prefix: 'pet' });
  t.equal(inB.spec.function_count, 7);
  t.equal((await callFunction(tp, b.token, 'pet_list_pets')).status, 200);
});

t.test('editing a description; deleting a spec deletes its functions and announces it', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  const done = await imported(tp, token, { spec: petstore(api.url), name: 'pets', prefix: 'pet' });

  const edited = await tp.request({ method: 'PATCH', url: '/api/admin/integrations/functions/pet_get_pet', token, payload: { description: 'Fetch one pet by its id' } });
  t.equal(edited.status, 200);
  t.match(edited.body, { description: 'Fetch one pet by its id', description_edited: true, version: 2 });
  const described = await tp.request({ url: '/api/admin/functions', token });
  t.equal(described.body.items.find((f: { name: string }) => f.name === 'pet_get_pet').description, 'Fetch one pet by its id');
  const event = (await recentEvents(tp, token)).find((e) => e.type === 'definition.updated');
  t.match(event?.data, { name: 'pet_get_pet', changed_fields: ['description'], definition_type: 'function' });
  t.equal((await tp.request({ method: 'PATCH', url: '/api/admin/integrations/functions/pet_get_pet', token, payload: { description: '' } })).status, 400);
  t.equal((await tp.request({ method: 'PATCH', url: '/api/admin/integrations/functions/pet_get_pet', token, payload: { summary: 'x' } })).status, 400);

  const deleted = await tp.request({ method: 'DELETE', url: `/api/admin/integrations/specs/${done.spec.id}`, token });
  t.equal(deleted.status, 204);
  t.equal((await tp.request({ url: '/api/admin/integrations/functions', token })).body.total, 0);
  t.equal((await callFunction(tp, token, 'pet_get_pet')).status, 404);
  const deletions = (await recentEvents(tp, token)).filter((e) => e.type === 'definition.deleted');
  t.equal(deletions.length, 7);
  t.match(deletions[0].data, { definition_type: 'function', spec_name: 'pets' });
  t.equal((await tp.request({ method: 'DELETE', url: `/api/admin/integrations/specs/${done.spec.id}`, token })).status, 404);
});
