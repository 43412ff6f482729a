// Form definitions: Form.io schemas with immutable versions (an edit is
// version N+1, a schema equal to the latest is no new version, every version
// stays readable, archived definitions' included); a schema that is not a
// Form.io form, or has duplicate or malformed keys, is a 400 naming them;
// admins only; tenant isolation of definitions, use cases and submissions.
import t from 'tap';
import { api, assetForm, formsPlatform, member, rows } from './helpers.ts';
import { tenantWithAdmin } from 'agent-platform/sdk/testing';

t.test('definitions: versions, schema checks, archive', async (t) => {
  const { tp, acme } = await formsPlatform(t);
  const a = api(tp);
  const auth = { token: acme.token };

  const duplicate = await a.call('POST', '/api/admin/forms/definitions', auth, {
    name: 'dup', schema: { components: [
      { type: 'textfield', key: 'title', input: true },
      { type: 'panel', key: 'more', components: [{ type: 'textfield', key: 'title', input: true }, { type: 'number', key: 'n', input: true }] },
      { type: 'number', key: 'n', input: true },
    ] },
  });
  t.equal(duplicate.status, 400);
  t.equal(duplicate.body.code, 'FORM_SCHEMA_INVALID');
  t.match(duplicate.body.problems, ['duplicate keys: title, n']);
  t.match(duplicate.body.message, /duplicate keys: title, n/);

  for (const [what, schema, problem] of [
    ['no components', { display: 'form' }, /components/],
    ['a component without a key', { components: [{ type: 'textfield', input: true }] }, /`key` must be/],
    ['a key with a dot', { components: [{ type: 'textfield', key: 'a.b', input: true }] }, /"a\.b": `key` must be/],
    ['a component without a type', { components: [{ key: 'x' }] }, /component x: `type` is required/],
    ['a nested form reference', { components: [{ type: 'form', key: 'sub', form: 'abc' }] }, /sub: type "form"/],
  ] as const) {
    const created = await a.call('POST', '/api/admin/forms/definitions', auth, { name: `bad ${what}`, schema });
    t.equal(created.status, 400, what);
    t.match(created.body.problems, [problem], what);
  }
  t.equal((await rows(tp, 'forms_definitions', 'acme')).length, 0, 'refused schemas create nothing');

  const created = await a.call('POST', '/api/admin/forms/definitions', auth, { name: 'Assets', description: 'asset reports', schema: assetForm() });
  t.equal(created.status, 201);
  t.match(created.body, { name: 'Assets', latest_version: 1, schema: { components: Array } });
  const id = created.body.id as string;
  t.equal((await a.call('POST', '/api/admin/forms/definitions', auth, { name: 'Assets', schema: assetForm() })).status, 409, 'names are unique');

  // The same schema (keys in another order) is no new version; a rename is in place.
  const reordered = { components: assetForm().components, display: 'form' };
  const same = await a.call('PUT', `/api/admin/forms/definitions/${id}`, auth, { name: 'Asset reports', schema: reordered });
  t.equal(same.status, 200);
  t.equal(same.body.latest_version, 1);
  t.equal(same.body.name, 'Asset reports');
  const changed = assetForm();
  changed.components[0].label = 'Name of the asset';
  const v2 = await a.call('PUT', `/api/admin/forms/definitions/${id}`, auth, { schema: changed });
  t.equal(v2.body.latest_version, 2);
  const badEdit = await a.call('PUT', `/api/admin/forms/definitions/${id}`, auth, { schema: { components: [{ type: 'textfield', key: 'x' }, { type: 'textfield', key: 'x' }] } });
  t.equal(badEdit.status, 400, 'an edit is checked like a creation');
  const versions = await a.call('GET', `/api/admin/forms/definitions/${id}/versions`, auth);
  t.same(versions.body.items.map((v: { version: number }) => v.version), [2, 1]);
  t.equal((await a.call('GET', `/api/admin/forms/definitions/${id}/versions/1`, auth)).body.schema.components[0].label, 'Title', 'version 1 is unchanged');
  t.equal((await a.call('GET', `/api/admin/forms/definitions/${id}/versions/3`, auth)).status, 404);
  await t.rejects(tp.platform.core.pool.query(`UPDATE forms_definition_versions SET schema = '{}' WHERE definition_id = $1`, [id]), /immutable/);

  // In use: not deleted; once its use case is gone, archived, its versions still readable.
  const useCase = await a.useCase(auth, id, { form_version: 1 });
  t.equal((await a.call('GET', `/api/admin/forms/use-cases/${useCase.id}`, auth)).body.form_version, 1, 'a use case pins a version');
  const inUse = await a.call('DELETE', `/api/admin/forms/definitions/${id}`, auth);
  t.equal(inUse.status, 409);
  t.equal(inUse.body.code, 'FORM_DEFINITION_IN_USE');
  t.equal((await a.call('DELETE', `/api/admin/forms/use-cases/${useCase.id}`, auth)).status, 204);
  t.equal((await a.call('DELETE', `/api/admin/forms/definitions/${id}`, auth)).status, 204);
  t.equal((await a.call('GET', `/api/admin/forms/definitions/${id}`, auth)).status, 404);
  t.equal((await a.call('GET', `/api/admin/forms/definitions/${id}/versions/2`, auth)).status, 200, 'archived versions stay readable');
  t.equal((await a.call('GET', '/api/admin/forms/definitions', auth)).body.total, 0);
});

t.test('validate: a payload checked against one version as a submission is, nothing stored', async (t) => {
  const { tp, acme } = await formsPlatform(t);
  const other = await tenantWithAdmin(tp, 'other');
  const a = api(tp);
  const auth = { token: acme.token };
  const definition = await a.definition(auth);
  const url = `/api/admin/forms/definitions/${definition.id}/versions/1/validate`;

  const missing = await a.call('POST', url, auth, { payload: { serial: 5 } });
  t.equal(missing.status, 200);
  t.equal(missing.body.valid, false);
  t.match(missing.body.errors, [{ path: 'title', message: /Title is required/ }], 'a required field left empty, with Form.io\'s message');
  const unknown = await a.call('POST', url, auth, { payload: { title: 'Bench', extra: 1 } });
  t.match(unknown.body, { valid: false, errors: [{ path: 'extra', message: /not a field/ }] }, 'a key that is no field is refused, as at submission');
  const pattern = await a.call('POST', url, auth, { payload: { title: 'Bench', code: 'nope' } });
  t.match(pattern.body.errors, [{ path: 'code' }], 'patterns run as at submission');
  const fine = await a.call('POST', url, auth, { payload: { title: 'Bench', serial: 7 } });
  t.match(fine.body, { valid: true, errors: [], data: { title: 'Bench', serial: 7 } });
  t.equal((await rows(tp, 'forms_submissions', 'acme')).length, 0, 'nothing is stored');

  t.equal((await a.call('POST', `/api/admin/forms/definitions/${definition.id}/versions/9/validate`, auth, { payload: {} })).status, 404, 'an unknown version');
  t.equal((await a.call('POST', url, auth, { payload: [] })).status, 400, 'a payload that is no object');
  t.equal((await a.call('POST', url, { token: await member(tp, 'acme') }, { payload: {} })).status, 403, 'admins only');
  t.equal((await a.call('POST', url, {}, { payload: {} })).status, 401);
  t.equal((await a.call('POST', url, { token: other.token }, { payload: {} })).status, 404, 'another tenant\'s definition is not found');
});

t.test('admin routes need the admin role; tenants see nothing of each other', async (t) => {
  const { tp, acme } = await formsPlatform(t);
  const other = await tenantWithAdmin(tp, 'other');
  const a = api(tp);
  const auth = { token: acme.token };
  const definition = await a.definition(auth);
  const useCase = await a.useCase(auth, definition.id, { access: 'authenticated' });
  const sent = await a.submit(auth, useCase.id, { title: 'Bench 1' });
  t.equal(sent.status, 201, JSON.stringify(sent.body));

  const plain = await member(tp, 'acme');
  for (const url of ['/api/admin/forms/definitions', '/api/admin/forms/use-cases', '/api/admin/forms/submissions', '/api/admin/forms/targets']) {
    t.equal((await a.call('GET', url, { token: plain })).status, 403, `a member without roles: ${url}`);
    t.equal((await a.call('GET', url, {})).status, 401, `anonymous: ${url}`);
  }
  t.equal((await a.submit({ token: plain }, useCase.id, { title: 'Bench by a member' })).status, 201, 'any user of the tenant may submit');

  const foreign = { token: other.token };
  t.equal((await a.call('GET', `/api/admin/forms/definitions/${definition.id}`, foreign)).status, 404);
  t.equal((await a.call('GET', `/api/admin/forms/definitions/${definition.id}/versions/1`, foreign)).status, 404);
  t.equal((await a.call('GET', `/api/admin/forms/use-cases/${useCase.id}`, foreign)).status, 404);
  t.equal((await a.call('GET', `/api/admin/forms/submissions/${sent.body.id}`, foreign)).status, 404);
  t.equal((await a.call('GET', '/api/admin/forms/submissions', foreign)).body.total, 0);
  t.equal((await a.call('GET', `/api/forms/use-cases/${useCase.id}`, foreign)).status, 404, 'another tenant\'s use case is not found');
  t.equal((await a.submit(foreign, useCase.id, { title: 'Bench' })).status, 404);
  t.equal((await a.call('GET', `/api/admin/forms/definitions/${definition.id}`, { token: other.token, tenant: 'acme' })).status, 403, 'a user of another tenant naming this one');
  const other2 = await a.call('POST', '/api/admin/forms/use-cases', foreign, {
    name: 'steal', form_definition_id: definition.id, target_model: 'assets.Asset', target_config: { category: 'bench' }, access: 'public',
  });
  t.equal(other2.status, 400, 'another tenant\'s definition cannot be used');
  t.equal(other2.body.code, 'FORM_VERSION_NOT_FOUND');
  const gql = await a.call('POST', '/graphql', foreign, { query: `{ formSubmissions { edges { node { id } } } formSubmission(id: "${sent.body.id}") { id } }` });
  t.same(gql.body.data, { formSubmissions: { edges: [] }, formSubmission: null });
});

t.test('the OpenAPI document lists every forms route, tagged, with labelled response schemas', async (t) => {
  const { tp } = await formsPlatform(t);
  const docs = await tp.request({ url: '/docs/openapi.json' });
  t.equal(docs.status, 200);
  const paths = docs.body.paths;
  const expected: Record<string, string[]> = {
    '/api/admin/forms/definitions': ['get', 'post'],
    '/api/admin/forms/definitions/{id}': ['get', 'put', 'delete'],
    '/api/admin/forms/definitions/{id}/versions': ['get'],
    '/api/admin/forms/definitions/{id}/versions/{version}': ['get'],
    '/api/admin/forms/definitions/{id}/versions/{version}/validate': ['post'],
    '/api/admin/forms/use-cases': ['get', 'post'],
    '/api/admin/forms/use-cases/{id}': ['get', 'put', 'delete'],
    '/api/admin/forms/use-cases/{id}/bindings': ['get', 'put'],
    '/api/admin/forms/use-cases/{id}/preview': ['post'],
    '/api/admin/forms/targets': ['get'],
    '/api/admin/forms/targets/{model}/fields': ['get'],
    '/api/admin/forms/targets/{model}/suggestions': ['post'],
    '/api/admin/forms/targets/{model}/standard-mappings': ['get'],
    '/api/admin/forms/submissions': ['get'],
    '/api/admin/forms/submissions/{id}': ['get'],
    '/api/admin/forms/submissions/{id}/files/{file_id}': ['get'],
    '/api/admin/forms/submissions/{id}/rehydrate': ['post'],
    '/api/admin/forms/submissions/{id}/redact': ['post'],
    '/api/forms/use-cases/{id}': ['get'],
    '/api/forms/use-cases/{id}/submissions': ['post'],
    '/api/forms/files': ['post'],
  };
  for (const [path, methods] of Object.entries(expected)) {
    t.same(Object.keys(paths[path] ?? {}).sort(), [...methods].sort(), path);
    for (const method of methods) t.ok(paths[path]?.[method]?.tags?.includes('forms'), `${method} ${path} is tagged forms`);
  }
  for (const label of ['FormDefinition', 'UseCase', 'FieldBindings', 'HydrationTargetList', 'FormSubmitted', 'FormSubmission', 'FormFileToken']) {
    t.ok(docs.body.components.schemas[label], `${label} is a named schema`);
  }
});
