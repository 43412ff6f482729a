// The /credentials endpoints (vault mode), migration from legacy_inline, and
// revocation; in legacy_inline mode each fails clearly. Values never come back.
import t from 'tap';
import { startTestPlatform } from 'agent-platform/sdk/testing';
import { sourcesPlatform, stored, userToken } from './helpers.ts';

const SECRET = 'rotate-me-secret-1';
const ROTATED = 'rotated-secret-2';
const config = { host: '127.0.0.1', database: 'shop', user: 'reader' };

t.test('vault: attach, read metadata, rotate, detach, revoke only when unreferenced', async (t) => {
  const { tp, asAcme, asBeta } = await sourcesPlatform(t, {}, { captureLogs: true });
  const sourceId = (await asAcme('POST', '/api/v1/sources', { name: 'shop', pattern_id: 'postgres', source_config: config })).body.id;
  const base = `/api/v1/sources/${sourceId}/credentials`;
  t.equal((await asAcme('GET', base)).body.code, 'CREDENTIAL_NOT_FOUND');
  t.equal((await asAcme('POST', base, { credential_values: { password: SECRET } })).body.code, 'CREDENTIAL_NAME_REQUIRED');
  t.equal((await asAcme('POST', base, {})).body.code, 'CREDENTIAL_CONFLICT');
  t.equal((await asAcme('POST', base, { credential_values: { apikey: SECRET }, credential_name: 'x' })).body.code, 'CREDENTIAL_FIELD_UNKNOWN');

  const attached = await asAcme('POST', base, { credential_values: { password: SECRET }, credential_name: 'shop login' });
  t.equal(attached.status, 201);
  t.match(attached.body, { name: 'shop login', kind: 'postgres', field_names: ['password'], presence: { password: true }, version: '1', status: 'active', rotated_at: null, reference_count: 1 });
  const ref = attached.body.credential_ref;
  t.equal((await asAcme('POST', base, { credential_ref: ref })).body.code, 'CREDENTIAL_EXISTS');
  t.equal((await asAcme('GET', `/api/v1/sources/${sourceId}`)).body.credential_ref, ref);

  const rotated = await asAcme('PUT', base, { credential_values: { password: ROTATED } });
  t.equal(rotated.status, 200);
  t.match(rotated.body, { version: '2', credential_ref: ref });
  t.ok(rotated.body.rotated_at);
  const sealed = (await stored(tp, 'SELECT sealed, version FROM pipeline_credentials'))[0];
  t.equal(sealed.version, 2);
  t.notMatch(sealed.sealed, ROTATED);

  t.equal((await asAcme('POST', `/api/v1/sources/credentials/${ref}/revoke`)).body.code, 'CREDENTIAL_IN_USE');
  t.equal((await asBeta('POST', `/api/v1/sources/credentials/${ref}/revoke`)).status, 404, 'another tenant\'s credential is not found');
  t.equal((await asAcme('DELETE', base)).status, 204);
  t.equal((await asAcme('GET', base)).status, 404);
  const revoked = await asAcme('POST', `/api/v1/sources/credentials/${ref}/revoke`);
  t.equal(revoked.status, 200);
  t.match(revoked.body, { status: 'revoked', reference_count: 0 });
  t.equal((await stored(tp, 'SELECT count(*)::int AS n FROM pipeline_credentials'))[0].n, 1, 'the sealed data is kept');
  const reuse = await asAcme('POST', base, { credential_ref: ref });
  t.equal(reuse.status, 400);
  t.equal(reuse.body.code, 'CREDENTIAL_REVOKED');

  const reader = await userToken(tp, 'reader', ['acme']);
  t.equal((await tp.request({ url: base, token: reader, tenant: 'acme' })).status, 403, 'credential metadata is for editors');
  for (const line of tp.logs) if (line.includes(SECRET) || line.includes(ROTATED)) t.fail(`a log line carries a credential value: ${line.slice(0, 200)}`);
});

t.test('legacy_inline, then vault: every /credentials endpoint fails clearly inline; migrate writes and verifies the store, then empties the row', async (t) => {
  const { tp, acme, asAcme } = await sourcesPlatform(t, { SOURCE_CREDENTIAL_MODE: 'legacy_inline' });
  const sourceId = (await asAcme('POST', '/api/v1/sources', { name: 'shop', pattern_id: 'postgres', source_config: config, credential_values: { password: SECRET } })).body.id;
  const base = `/api/v1/sources/${sourceId}/credentials`;
  for (const [method, url, payload] of [['GET', base], ['POST', base, { credential_ref: 'cred_aaaaaaaaaaaaaaaaaaaa' }], ['PUT', base, { credential_values: { password: 'x' } }],
    ['DELETE', base], ['POST', `${base}/migrate`], ['POST', '/api/v1/sources/credentials/cred_aaaaaaaaaaaaaaaaaaaa/revoke']] as [string, string, unknown][]) {
    const response = await asAcme(method, url, payload);
    t.equal(response.status, 400, `${method} ${url}`);
    t.equal(response.body.code, 'CREDENTIAL_MODE_LEGACY');
  }
  await tp.stop();

  // The same database, now in vault mode (same master key).
  const vault = await startTestPlatform(t, { databaseUrl: tp.databaseUrl, env: { SOURCE_CREDENTIAL_MODE: 'vault', PLATFORM_MASTER_KEY: tp.env.PLATFORM_MASTER_KEY!, ADMIN_TOKEN: tp.adminToken } });
  const token = (await vault.request({ method: 'POST', url: `/api/admin/users/${acme.sub}/tokens`, token: vault.adminToken })).body.access_token;
  const as = (method: string, url: string, payload?: unknown) => vault.request({ method, url, token, tenant: 'acme', payload });
  t.same((await as('GET', `/api/v1/sources/${sourceId}`)).body.credential_fields_set, ['password'], 'inline values still count until migrated');
  const migrated = await as('POST', `${base}/migrate`, { credential_name: 'moved' });
  t.equal(migrated.status, 200);
  t.match(migrated.body, { name: 'moved', field_names: ['password'], presence: { password: true }, version: '1', reference_count: 1 });
  const row = (await stored(vault, 'SELECT source_config, credential_ref FROM pipeline_sources'))[0];
  t.notOk('password' in row.source_config, 'the declared field left the relational row');
  t.equal(row.credential_ref, migrated.body.credential_ref);
  t.same(row.source_config, config);
  t.equal((await as('POST', `${base}/migrate`)).body.code, 'CREDENTIAL_EXISTS');
  t.same((await as('GET', `/api/v1/sources/${sourceId}`)).body.credential_fields_set, ['password']);
});

t.test('readyz checks the credential policy and the lakehouse', async (t) => {
  const { tp } = await sourcesPlatform(t);
  const ready = await tp.request({ url: '/readyz' });
  t.equal(ready.status, 200);
  t.match(ready.body.checks, { source_credentials: 'ok', lakehouse: 'ok' });
  await tp.platform.core.pool.query('REVOKE USAGE ON SCHEMA raw FROM platform_tenant');
  const unready = await tp.request({ url: '/readyz', token: tp.adminToken });
  t.equal(unready.status, 503, 'a lake the tenant role cannot use makes the platform unready');
  t.match(unready.body.checks.lakehouse, /raw/);
});
