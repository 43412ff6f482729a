// Sources: patterns, CRUD in both credential
// modes, write-only credentials (never in readback, errors or logs), roles
// and tenant isolation.
import t from 'tap';
import { sourcesPlatform, stored, userToken } from './helpers.ts';

const SECRET = 'hunter2-very-secret-value';
const config = { host: '127.0.0.1', port: 5432, database: 'shop', user: 'reader' };

t.test('patterns: the built-in postgres pattern with its schema and write-only fields', async (t) => {
  const { asAcme } = await sourcesPlatform(t);
  const list = await asAcme('GET', '/api/v1/patterns/discover');
  t.equal(list.status, 200);
  t.ok(list.body.items.some((p: { id: string }) => p.id === 'postgres'));
  const postgres = await asAcme('GET', '/api/v1/patterns/postgres');
  t.match(postgres.body, { id: 'postgres', built_in: true, credential_fields: ['password'] });
  t.equal(postgres.body.config_schema.properties.password.credential, true);
  const missing = await asAcme('GET', '/api/v1/patterns/nope');
  t.equal(missing.status, 404);
  t.equal(missing.body.code, 'PATTERN_NOT_FOUND');
});

t.test('vault mode: values with a name make a sealed credential; readback shows metadata only', async (t) => {
  const { tp, asAcme, asBeta } = await sourcesPlatform(t, {}, { captureLogs: true });
  const created = await asAcme('POST', '/api/v1/sources', { name: 'shop', pattern_id: 'postgres', source_config: config, credential_values: { password: SECRET }, credential_name: 'shop reader' });
  t.equal(created.status, 201);
  t.match(created.body, { name: 'shop', pattern_id: 'postgres', credential_mode: 'vault', credential_name: 'shop reader', credential_fields: ['password'], credential_fields_set: ['password'], state: 'ready' });
  t.match(created.body.credential_ref, /^cred_/);
  t.same(created.body.source_config, config);
  const id = created.body.id;

  const read = await asAcme('GET', `/api/v1/sources/${id}`);
  t.equal(read.status, 200);
  t.notMatch(JSON.stringify(read.body), SECRET);
  t.equal((await asAcme('GET', '/api/v1/sources')).body.total, 1);

  const rows = await stored(tp, 'SELECT source_config::text AS config, (SELECT string_agg(sealed, \'\') FROM pipeline_credentials) AS sealed FROM pipeline_sources');
  t.notMatch(rows[0].config, SECRET, 'the relational row holds no credential');
  t.notMatch(rows[0].sealed, SECRET, 'the store holds it sealed');

  const renamed = await asAcme('PATCH', `/api/v1/sources/${id}`, { source_config: { ...config, database: 'shop2' } });
  t.equal(renamed.status, 200);
  t.equal(renamed.body.credential_ref, created.body.credential_ref, 'an ordinary update keeps the credential');
  t.same(renamed.body.credential_fields_set, ['password']);

  // A second source may use the same credential by ref; another tenant may not.
  const byRef = await asAcme('POST', '/api/v1/sources', { name: 'shop_copy', pattern_id: 'postgres', source_config: config, credential_ref: created.body.credential_ref });
  t.equal(byRef.status, 201);
  const foreign = await asBeta('POST', '/api/v1/sources', { name: 'steal', pattern_id: 'postgres', source_config: config, credential_ref: created.body.credential_ref });
  t.equal(foreign.status, 400);
  t.equal(foreign.body.code, 'CREDENTIAL_NOT_FOUND');
  t.equal((await asBeta('GET', `/api/v1/sources/${id}`)).status, 404, 'another tenant\'s source is not found');
  t.equal((await asBeta('GET', '/api/v1/sources')).body.total, 0);

  // Detaching or deleting never deletes stored secret data.
  t.equal((await asAcme('PATCH', `/api/v1/sources/${byRef.body.id}`, { credential_ref: null })).body.credential_ref, null);
  t.equal((await asAcme('DELETE', `/api/v1/sources/${id}`)).status, 204);
  t.equal((await asAcme('GET', `/api/v1/sources/${id}`)).status, 404);
  t.equal((await stored(tp, 'SELECT count(*)::int AS n FROM pipeline_credentials'))[0].n, 1, 'the credential is still stored');

  t.ok(tp.logs.length > 0, 'logs were captured');
  t.notOk(tp.logs.some((line) => line.includes(SECRET)), 'no log line carries the credential value');
});

t.test('bad input: clear 4xx that names fields, never values, and changes nothing', async (t) => {
  const { tp, asAcme } = await sourcesPlatform(t, {}, { captureLogs: true });
  const post = (body: object) => asAcme('POST', '/api/v1/sources', { name: 'shop', pattern_id: 'postgres', source_config: config, ...body });
  const cases: [object, string][] = [
    [{ credential_values: { password: SECRET }, credential_name: 'x', credential_ref: 'cred_aaaaaaaaaaaaaaaaaaaa' }, 'CREDENTIAL_CONFLICT'],
    [{ credential_values: { password: SECRET } }, 'CREDENTIAL_NAME_REQUIRED'],
    [{ source_config: { ...config, password: SECRET } }, 'CREDENTIAL_IN_CONFIG'],
    [{ credential_values: { token: SECRET }, credential_name: 'x' }, 'CREDENTIAL_FIELD_UNKNOWN'],
    [{ source_config: { host: 'h', port: 'five', database: 'd', user: 'u' } }, 'SOURCE_CONFIG_INVALID'],
    [{ source_config: { ...config, sneaky: SECRET } }, 'SOURCE_CONFIG_INVALID'],
    [{ credential_values: { password: 'x'.repeat(2000) + SECRET }, credential_name: 'x' }, 'SOURCE_CONFIG_INVALID'],
    [{ name: 'bad name!' }, 'VALIDATION_FAILED'],
    [{ credential_ref: 'cred_aaaaaaaaaaaaaaaaaaaa' }, 'CREDENTIAL_NOT_FOUND'],
  ];
  for (const [body, code] of cases) {
    const response = await post(body);
    t.equal(response.status, 400, code);
    t.equal(response.body.code, code);
    t.notMatch(JSON.stringify(response.body), SECRET, `${code}: the error carries no credential value`);
  }
  t.equal((await post({ pattern_id: 'nope' })).status, 404);
  t.equal((await asAcme('GET', '/api/v1/sources')).body.total, 0, 'nothing was created');
  t.equal((await stored(tp, 'SELECT count(*)::int AS n FROM pipeline_credentials'))[0].n, 0, 'no credential was stored');
  t.equal((await asAcme('GET', '/api/v1/sources/not-a-uuid')).status, 400);
  t.notOk(tp.logs.some((line) => line.includes(SECRET)), 'no log line carries the credential value');
});

t.test('legacy_inline mode: values merged (sealed) into source_config, kept across updates, hidden; no credential_ref', async (t) => {
  const { tp, asAcme } = await sourcesPlatform(t, { SOURCE_CREDENTIAL_MODE: 'legacy_inline' });
  const refused = await asAcme('POST', '/api/v1/sources', { name: 'shop', pattern_id: 'postgres', source_config: config, credential_ref: 'cred_aaaaaaaaaaaaaaaaaaaa' });
  t.equal(refused.status, 400);
  t.equal(refused.body.code, 'CREDENTIAL_REF_UNAVAILABLE');
  const created = await asAcme('POST', '/api/v1/sources', { name: 'shop', pattern_id: 'postgres', source_config: config, credential_values: { password: SECRET } });
  t.equal(created.status, 201);
  t.match(created.body, { credential_mode: 'legacy_inline', credential_ref: null, credential_fields_set: ['password'] });
  t.same(created.body.source_config, config, 'hidden on readback');
  const updated = await asAcme('PATCH', `/api/v1/sources/${created.body.id}`, { source_config: { ...config, user: 'other' } });
  t.same(updated.body.credential_fields_set, ['password'], 'kept across an ordinary update');
  t.equal(updated.body.source_config.user, 'other');
  const row = (await stored(tp, 'SELECT source_config FROM pipeline_sources'))[0].source_config;
  t.match(row.password, { $sealed: /^v1:/ }, 'merged into source_config, sealed');
  t.notMatch(JSON.stringify(row), SECRET);
  t.equal((await stored(tp, 'SELECT count(*)::int AS n FROM pipeline_credentials'))[0].n, 0, 'nothing in the vault');
});

t.test('roles: members read; admin or pipeline_editor change', async (t) => {
  const { tp, asAcme } = await sourcesPlatform(t);
  const reader = await userToken(tp, 'reader', ['acme']);
  const editor = await userToken(tp, 'editor', ['acme'], ['pipeline_editor']);
  const body = { name: 'shop', pattern_id: 'postgres', source_config: config };
  const denied = await tp.request({ method: 'POST', url: '/api/v1/sources', token: reader, tenant: 'acme', payload: body });
  t.equal(denied.status, 403);
  t.equal((await asAcme('GET', '/api/v1/sources')).body.total, 0);
  const made = await tp.request({ method: 'POST', url: '/api/v1/sources', token: editor, tenant: 'acme', payload: body });
  t.equal(made.status, 201);
  t.equal(made.body.created_by, 'editor');
  t.equal((await tp.request({ url: `/api/v1/sources/${made.body.id}`, token: reader, tenant: 'acme' })).status, 200, 'a member reads');
  t.equal((await tp.request({ method: 'DELETE', url: `/api/v1/sources/${made.body.id}`, token: reader, tenant: 'acme' })).status, 403);
  const noTenant = await tp.request({ url: '/api/v1/sources', token: reader });
  t.equal(noTenant.status, 400);
  t.equal(noTenant.body.code, 'TENANT_REQUIRED');
  const foreign = await tp.request({ url: '/api/v1/sources', token: reader, tenant: 'beta' });
  t.equal(foreign.body.code, 'TENANT_FORBIDDEN');
  t.equal((await tp.request({ url: '/api/v1/sources', token: reader, tenant: 'Bad!' })).body.code, 'TENANT_INVALID');
});
