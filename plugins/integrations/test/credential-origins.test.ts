// Stored credentials are bound to the origin they were given for: when a
// re-import or a sync moves a spec to another scheme, host or
// port (or its oauth2 token URL elsewhere), no stored credential is sent
// there: the call answers 409 CREDENTIAL_ORIGIN_CHANGED, naming the
// credential's level, and the new server receives nothing, until the
// credential is entered again. The same origin keeps working across
// re-imports, and rows stored before the binding existed keep working for
// their origin (migration 0061). Every server is a real loopback listener.
import t from 'tap';
import { petstore } from '../../../test/fixtures/integrations/specs.ts';
import type { TestPlatform } from 'agent-platform/sdk/testing';
import { sealContext } from '../sealing/sealing.ts';
import { imported, importSpec, integrationsFixture, startApiServer, type ApiServer } from './helpers.ts';
import { restart, secretBoxOf, superuser } from './stored-rows.ts';

/** Calls through the core registry as an agent in a chat session of a client would (the scope a REST call cannot name). */
async function callAs(
  tp: TestPlatform, tenantId: string, name: string, who: { sessionId?: string; clientId?: number } = {},
): Promise<{ status: number; body: Record<string, any> }> {
  const core = tp.platform.core;
  try {
    const result = await core.functions.call(name, {}, {
      tenantId,
      principal: { kind: 'service', sub: 'test-agent' },
      withTenant: core.withTenant,
      logger: core.logger,
      executionContext: who.sessionId ? { type: 'chat_session', id: who.sessionId } : { type: 'function_call', id: 'test' },
      clientId: who.clientId,
    });
    return { status: 200, body: result as Record<string, any> };
  } catch (err) {
    const boom = err as { output?: { statusCode: number; payload: Record<string, unknown> } };
    if (!boom.output) throw err;
    return { status: boom.output.statusCode, body: boom.output.payload };
  }
}

const keyAt = (server: ApiServer) => server.calls().at(-1)?.headers['x-api-key'];

async function newClient(tp: TestPlatform, token: string) {
  const client = await tp.request({ method: 'POST', url: '/api/admin/clients', token, payload: { name: 'web' } });
  if (client.status !== 201) throw new Error(JSON.stringify(client.body));
  return client.body.id as number;
}

const setClientCredential = (tp: TestPlatform, token: string, clientId: number, value: string) =>
  tp.request({ method: 'POST', url: `/clients/${clientId}/credentials`, token, payload: { service_name: 'pets', value } });
const setSessionCredential = (tp: TestPlatform, token: string, sessionId: string, value: string) =>
  tp.request({ method: 'POST', url: `/api/sessions/${sessionId}/credentials`, token, payload: { service_name: 'pets', value } });
const putSecret = (tp: TestPlatform, token: string, key: string, value: string) =>
  tp.request({ method: 'PUT', url: `/api/admin/integrations/secrets/${key}`, token, payload: { value } });

t.test('client and session credentials: moved to another port, not sent until entered again', async (t) => {
  const { tp, token, tenant } = await integrationsFixture(t);
  const a = await startApiServer(t);
  const b = await startApiServer(t);
  await imported(tp, token, { spec: petstore(a.url), name: 'pets', prefix: 'pet' });
  const clientId = await newClient(tp, token);
  t.equal((await setClientCredential(tp, token, clientId, 'client-for-a')).status, 201);
  t.equal((await setSessionCredential(tp, token, 's-1', 'session-for-a')).status, 201);
  t.match(await callAs(tp, tenant, 'pet_list_pets', { clientId }), { status: 200, body: { status: 200, credential: 'client' } });
  t.equal(keyAt(a), 'client-for-a');
  t.match(await callAs(tp, tenant, 'pet_list_pets', { sessionId: 's-1', clientId }), { status: 200, body: { credential: 'session' } });
  t.equal(keyAt(a), 'session-for-a');

  // The tenant admin re-imports the spec with another server (same host, another port).
  const moved = await imported(tp, token, { spec: petstore(b.url), name: 'pets', prefix: 'pet' });
  t.equal(moved.spec.base_url, b.url);
  t.ok(moved.warnings.some((w: { message: string }) => /origin changes from http:\/\/127\.0\.0\.1:\d+ to http:\/\/127\.0\.0\.1:\d+.*entered again/.test(w.message)), 'the re-import warns');

  const session = await callAs(tp, tenant, 'pet_list_pets', { sessionId: 's-1', clientId });
  t.equal(session.status, 409);
  t.equal(session.body.code, 'CREDENTIAL_ORIGIN_CHANGED');
  t.match(session.body.message, /^The session credential of "pets" was entered for http:\/\/127\.0\.0\.1:\d+, and the spec now calls http:\/\/127\.0\.0\.1:\d+.*must be entered again/);
  t.notMatch(session.body.message, /session-for-a/);
  const client = await callAs(tp, tenant, 'pet_list_pets', { clientId });
  t.equal(client.status, 409);
  t.equal(client.body.code, 'CREDENTIAL_ORIGIN_CHANGED');
  t.match(client.body.message, /^The client credential of "pets".*must be entered again.*POST \/clients\/\{client_id\}\/credentials/);
  t.same(b.requests, [], 'the new server received nothing');

  // Entered again: bound to the new origin, sent there.
  t.equal((await setClientCredential(tp, token, clientId, 'client-for-b')).status, 200);
  t.match(await callAs(tp, tenant, 'pet_list_pets', { clientId }), { status: 200, body: { status: 200, credential: 'client' } });
  t.equal(keyAt(b), 'client-for-b');
  t.equal((await callAs(tp, tenant, 'pet_list_pets', { sessionId: 's-1', clientId })).status, 409, 'the session credential still waits');
  t.equal((await setSessionCredential(tp, token, 's-1', 'session-for-b')).status, 200);
  t.match(await callAs(tp, tenant, 'pet_list_pets', { sessionId: 's-1', clientId }), { status: 200, body: { credential: 'session' } });
  t.equal(keyAt(b), 'session-for-b');
  t.notOk(b.requests.some((r) => /for-a/.test(JSON.stringify(r.headers))), 'no credential entered for A ever reached B');

  // A spec that sends no credential (auth_scheme none) moves freely: nothing is opened, nothing refused.
  await imported(tp, token, { spec: petstore(a.url), name: 'open', prefix: 'open', auth_scheme: 'none' });
  await tp.request({ method: 'POST', url: `/clients/${clientId}/credentials`, token, payload: { service_name: 'open', value: 'never-sent' } });
  await imported(tp, token, { spec: petstore(b.url), name: 'open', prefix: 'open', auth_scheme: 'none' });
  t.match(await callAs(tp, tenant, 'open_list_pets', { clientId }), { status: 200, body: { status: 200, credential: 'none' } });
  t.notOk(b.calls().at(-1)!.headers['x-api-key']);
});

t.test('the default auth value: a sync that moves the server to another host; the oauth2 token URL', async (t) => {
  const { tp, token, tenant } = await integrationsFixture(t);
  const a = await startApiServer(t);
  const document = petstore(a.url) as Record<string, any>;
  a.serve('/openapi.json', document);
  const done = await imported(tp, token, { source: `${a.url}/openapi.json`, name: 'pets', prefix: 'pet', auth_value: 'default-for-a' });
  t.match(await callAs(tp, tenant, 'pet_list_pets'), { status: 200, body: { credential: 'default' } });
  t.equal(keyAt(a), 'default-for-a');

  // The document now names the same listener by another host name: another origin.
  const elsewhere = a.url.replace('127.0.0.1', 'localhost');
  document.servers = [{ url: elsewhere }];
  a.serve('/openapi.json', document);
  const before = a.calls().length;
  const sync = await tp.request({ method: 'POST', url: `/api/admin/integrations/specs/${done.spec.id}/sync`, token });
  t.equal(sync.status, 200);
  t.equal(sync.body.spec.base_url, elsewhere);
  t.ok(sync.body.warnings.some((w: { message: string }) => /origin changes/.test(w.message)), 'the sync warns');
  const refused = await callAs(tp, tenant, 'pet_list_pets');
  t.equal(refused.status, 409);
  t.equal(refused.body.code, 'CREDENTIAL_ORIGIN_CHANGED');
  t.match(refused.body.message, /^The default auth value of "pets" was entered for http:\/\/127\.0\.0\.1:\d+, and the spec now calls http:\/\/localhost:\d+.*re-import the spec with auth_value/);
  t.equal(a.calls().length, before, 'nothing was sent to the new host');
  const viaRest = await tp.request({ method: 'POST', url: '/api/admin/functions/pet_list_pets/call', token, payload: { arguments: {} } });
  t.equal(viaRest.status, 409, 'the REST call answers the same');
  t.equal(viaRest.body.code, 'CREDENTIAL_ORIGIN_CHANGED');

  await imported(tp, token, { source: `${a.url}/openapi.json`, name: 'pets', prefix: 'pet', auth_value: 'default-again' });
  t.match(await callAs(tp, tenant, 'pet_list_pets'), { status: 200, body: { credential: 'default' } });
  t.equal(keyAt(a), 'default-again', 'entered again: sent to the new origin');

  // oauth2: the client credentials go to the token URL, which is bound too.
  const tokens = await startApiServer(t);
  const evil = await startApiServer(t);
  for (const server of [tokens, evil]) {
    server.route((request, response) => {
      if (request.path !== '/token') return false;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"at-1","expires_in":3600}');
      return true;
    });
  }
  const oauth = { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${tokens.url}/token`, scopes: {} } } };
  await imported(tp, token, { spec: petstore(a.url, { oauth }), name: 'oa', prefix: 'oa', auth_value: 'app:secret' });
  t.match(await callAs(tp, tenant, 'oa_list_pets'), { status: 200, body: { status: 200 } });
  t.equal(tokens.calls().length, 1);
  await imported(tp, token, { spec: petstore(a.url, { oauth }), name: 'oa', prefix: 'oa', auth_token_url: `${evil.url}/token` });
  const moved = await callAs(tp, tenant, 'oa_list_pets');
  t.equal(moved.status, 409, 'the same API, another token endpoint');
  t.match(moved.body.message, /token=http:\/\/127\.0\.0\.1:\d+/);
  t.same(evil.requests, [], 'the client secret was not sent to the new token URL');
});

t.test('the secret-store entry a spec names is bound to the specs that named it when stored', async (t) => {
  const { tp, token, tenant } = await integrationsFixture(t);
  const a = await startApiServer(t);
  const b = await startApiServer(t);
  const early = await putSecret(tp, token, 'pets-key', 'too-early');
  t.equal(early.status, 409, 'a secret no spec names would be bound to nothing');
  t.equal(early.body.code, 'SECRET_NOT_NAMED');
  const unknown = await tp.request({ method: 'POST', url: `/clients/${await newClient(tp, token)}/credentials`, token, payload: { service_name: 'nope', value: 'x' } });
  t.equal(unknown.status, 404, 'a client credential for a spec not imported yet');
  t.equal(unknown.body.code, 'SPEC_NOT_FOUND');

  await imported(tp, token, { spec: petstore(a.url), name: 'pets', prefix: 'pet', auth_credential_source: 'pets-key' });
  t.equal((await putSecret(tp, token, 'pets-key', 'secret-for-a')).status, 201);
  t.match(await callAs(tp, tenant, 'pet_list_pets'), { status: 200 });
  t.equal(keyAt(a), 'secret-for-a');

  // Another spec naming the same key on another server does not get it.
  await imported(tp, token, { spec: petstore(b.url), name: 'thief', prefix: 'thief', auth_credential_source: 'pets-key' });
  const stolen = await callAs(tp, tenant, 'thief_list_pets');
  t.equal(stolen.status, 409);
  t.match(stolen.body.message, /^The secret-store entry "pets-key" of "thief" was entered for http:\/\/127\.0\.0\.1:\d+.*PUT \/api\/admin\/integrations\/secrets\/pets-key/);
  t.same(b.requests, []);

  // Nor does the spec itself once re-imported on B.
  await imported(tp, token, { spec: petstore(b.url), name: 'pets', prefix: 'pet' });
  t.equal((await callAs(tp, tenant, 'pet_list_pets')).status, 409);
  t.same(b.requests, [], 'B received nothing');

  t.equal((await putSecret(tp, token, 'pets-key', 'secret-for-b')).status, 200);
  t.match(await callAs(tp, tenant, 'pet_list_pets'), { status: 200, body: { status: 200 } });
  t.equal(keyAt(b), 'secret-for-b', 'stored again: bound to the origins of the specs naming it now');
  const listed = await tp.request({ url: '/api/admin/integrations/secrets', token });
  t.notMatch(JSON.stringify(listed.body), /secret-for|127\.0\.0\.1/);
});

t.test('an unchanged origin keeps working across re-imports and syncs', async (t) => {
  const { tp, token, tenant } = await integrationsFixture(t);
  const a = await startApiServer(t);
  const document = petstore(`${a.url}/v1`) as Record<string, any>;
  a.serve('/openapi.json', document);
  const done = await imported(tp, token, { source: `${a.url}/openapi.json`, name: 'pets', prefix: 'pet', auth_value: 'default-1' });
  const clientId = await newClient(tp, token);
  await setClientCredential(tp, token, clientId, 'client-1');
  await setSessionCredential(tp, token, 's-1', 'session-1');

  // Another path and title on the same origin, re-imported without a value, then synced.
  document.servers = [{ url: `${a.url}/v2` }];
  document.info.title = 'Pet store v2';
  a.serve('/openapi.json', document);
  const again = await imported(tp, token, { source: `${a.url}/openapi.json`, name: 'pets', prefix: 'pet' });
  t.equal(again.spec.base_url, `${a.url}/v2`);
  t.notMatch(JSON.stringify(again.warnings), /origin changes/);
  document.info.title = 'Pet store v3';
  a.serve('/openapi.json', document);
  t.match((await tp.request({ method: 'POST', url: `/api/admin/integrations/specs/${done.spec.id}/sync`, token })).body, { status: 'synced' });

  t.match(await callAs(tp, tenant, 'pet_list_pets'), { status: 200, body: { credential: 'default' } });
  t.same([a.calls().at(-1)!.path, keyAt(a)], ['/v2/pets', 'default-1']);
  t.match(await callAs(tp, tenant, 'pet_list_pets', { clientId }), { status: 200, body: { credential: 'client' } });
  t.equal(keyAt(a), 'client-1');
  t.match(await callAs(tp, tenant, 'pet_list_pets', { clientId, sessionId: 's-1' }), { status: 200, body: { credential: 'session' } });
  t.equal(keyAt(a), 'session-1');
  // The explicit default port is the same origin as none.
  const explicit = await importSpec(tp, token, { spec: petstore('https://api.example.com:443/x'), name: 'ex', dry_run: false, auth_value: 'v' });
  t.equal(explicit.status, 201);
  const implicit = await importSpec(tp, token, { spec: petstore('https://api.example.com/y'), name: 'ex', dry_run: false });
  t.notMatch(JSON.stringify(implicit.body.warnings), /origin changes/);
});

t.test('the binding is in the sealed value: editing it in the database does not move a credential', async (t) => {
  const { tp, token, tenant } = await integrationsFixture(t);
  const a = await startApiServer(t);
  const b = await startApiServer(t);
  await imported(tp, token, { spec: petstore(a.url), name: 'pets', prefix: 'pet' });
  const clientId = await newClient(tp, token);
  await setClientCredential(tp, token, clientId, 'client-for-a');
  const db = await superuser(t, tp);
  const { rows } = await db.query('SELECT bound_origin FROM integration_client_credentials WHERE tenant_id = $1', [tenant]);
  t.match(rows[0].bound_origin, /^http:\/\/127\.0\.0\.1:\d+$/);
  // Someone with write access to the tables (not to the master key) points both at B.
  await db.query('UPDATE integration_specs SET base_url = $1 WHERE tenant_id = $2', [b.url, tenant]);
  await db.query('UPDATE integration_client_credentials SET bound_origin = $1 WHERE tenant_id = $2', [b.url, tenant]);
  const call = await callAs(tp, tenant, 'pet_list_pets', { clientId });
  t.equal(call.status, 409);
  t.same(b.requests, [], 'the sealed value did not open for B');
});

t.test('credentials stored before the binding existed keep working for their origin only (migration 0061)', async (t) => {
  const first = await integrationsFixture(t);
  const { token, tenant } = first;
  const a = await startApiServer(t);
  const b = await startApiServer(t);
  await imported(first.tp, token, { spec: petstore(a.url), name: 'pets', prefix: 'pet', auth_value: 'unused' });
  await imported(first.tp, token, { spec: petstore(a.url), name: 'vault', prefix: 'vault', auth_credential_source: 'vault-key' });
  const clientId = await newClient(first.tp, token);
  await setClientCredential(first.tp, token, clientId, 'unused');
  await setSessionCredential(first.tp, token, 's-1', 'unused');
  await putSecret(first.tp, token, 'vault-key', 'unused');
  await first.tp.stop();

  // The database as the release before this change left it: values sealed with the row's identity only, no binding columns.
  const db = await superuser(t, first.tp);
  const box = secretBoxOf(first.tp);
  const spec = (await db.query('SELECT id FROM integration_specs WHERE name = $1', ['pets'])).rows[0];
  await db.query('UPDATE integration_specs SET auth_value_sealed = $1 WHERE id = $2', [box.seal('legacy-default', sealContext.specAuth(tenant, spec.id)), spec.id]);
  await db.query('UPDATE integration_client_credentials SET value_sealed = $1', [box.seal('legacy-client', sealContext.client(tenant, clientId, 'pets'))]);
  await db.query('UPDATE integration_session_credentials SET value_sealed = $1', [box.seal('legacy-session', sealContext.session(tenant, 's-1', 'pets'))]);
  await db.query('UPDATE integration_secrets SET value_sealed = $1', [box.seal('legacy-secret', sealContext.secret(tenant, 'vault-key'))]);
  await db.query(`ALTER TABLE integration_specs DROP COLUMN auth_value_origin;
    ALTER TABLE integration_client_credentials DROP COLUMN bound_origin;
    ALTER TABLE integration_session_credentials DROP COLUMN bound_origin;
    ALTER TABLE integration_secrets DROP COLUMN bound_origins;
    DELETE FROM platform_migrations WHERE plugin = 'integrations' AND name = '0002_credential_origins.sql'`);

  const tp = await restart(t, first.tp);
  t.match(await callAs(tp, tenant, 'pet_list_pets'), { status: 200, body: { credential: 'default' } });
  t.equal(keyAt(a), 'legacy-default');
  t.match(await callAs(tp, tenant, 'pet_list_pets', { clientId }), { status: 200, body: { credential: 'client' } });
  t.equal(keyAt(a), 'legacy-client');
  t.match(await callAs(tp, tenant, 'pet_list_pets', { clientId, sessionId: 's-1' }), { status: 200, body: { credential: 'session' } });
  t.equal(keyAt(a), 'legacy-session');
  t.match(await callAs(tp, tenant, 'vault_list_pets'), { status: 200 });
  t.equal(keyAt(a), 'legacy-secret');

  await imported(tp, token, { spec: petstore(b.url), name: 'pets', prefix: 'pet' });
  await imported(tp, token, { spec: petstore(b.url), name: 'vault', prefix: 'vault' });
  for (const [name, who] of [['pet_list_pets', {}], ['pet_list_pets', { clientId }], ['pet_list_pets', { clientId, sessionId: 's-1' }], ['vault_list_pets', {}]] as const) {
    const moved = await callAs(tp, tenant, name, who);
    t.equal(moved.status, 409, `${name} ${JSON.stringify(who)}: a legacy credential does not follow the spec to B`);
  }
  t.same(b.requests, [], 'B received nothing');
});
