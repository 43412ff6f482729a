// Each auth scheme as the target server sees it on the wire (apiKey in a
// header and in the query string, bearer, basic, oauth2 client credentials
// with a cached token), the credential resolution order (session, then
// client, then the function's default), and secrets that
// never appear in a response or a log line.
import t from 'tap';
import { openapi31, petstore } from '../../../test/fixtures/integrations/specs.ts';
import { tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';
import { callFunction, imported, integrationsFixture, startApiServer } from './helpers.ts';

/** Calls through the core registry as an agent in a chat session of a client would. */
function callAs(tp: TestPlatform, tenantId: string, name: string, args: Record<string, unknown>, who: { sessionId?: string; clientId?: number }) {
  const core = tp.platform.core;
  return core.functions.call(name, args, {
    tenantId,
    principal: { kind: 'service', sub: 'test-agent' },
    withTenant: core.withTenant,
    logger: core.logger,
    executionContext: who.sessionId ? { type: 'chat_session', id: who.sessionId } : { type: 'function_call', id: 'test' },
    clientId: who.clientId,
  }) as Promise<{ status: number; credential: string }>;
}

const simple = (serverUrl: string, scheme: Record<string, unknown>) => ({
  openapi: '3.0.3',
  info: { title: 'Echo', version: '1' },
  servers: [{ url: serverUrl }],
  components: { securitySchemes: { main: scheme } },
  security: [{ main: [] }],
  paths: { '/echo': { get: { operationId: 'echo', summary: 'Echo', responses: { 200: { description: 'ok' } } } } },
});

t.test('each auth scheme on the wire', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);

  await imported(tp, token, { spec: simple(api.url, { type: 'apiKey', in: 'header', name: 'X-Key' }), name: 'hdr', auth_value: 'raw-key' });
  await callFunction(tp, token, 'hdr_echo');
  t.equal(api.calls().at(-1)!.headers['x-key'], 'raw-key', 'apiKey: the raw value in the custom header');
  t.notOk(api.calls().at(-1)!.headers.authorization);

  await imported(tp, token, {
    spec: simple(api.url, { type: 'apiKey', in: 'header', name: 'X-Key' }), name: 'qry', auth_scheme: 'apiKey', auth_query_param: 'api_key', auth_value: 'q-key',
  });
  await callFunction(tp, token, 'qry_echo');
  t.equal(api.calls().at(-1)!.query.get('api_key'), 'q-key', 'apiKey: the raw value in the query parameter');
  t.notOk(api.calls().at(-1)!.headers['x-key']);

  await imported(tp, token, { spec: openapi31(api.url), name: 'notes', auth_value: 'tok-1' });
  await callFunction(tp, token, 'notes_create_note', { text: 'hi', pinned: null, kind: 'note' });
  t.equal(api.calls().at(-1)!.headers.authorization, 'Bearer tok-1', 'bearer: prefixed "Bearer "');
  t.same(api.calls().at(-1)!.body, { text: 'hi', pinned: null, kind: 'note' });

  await imported(tp, token, { spec: simple(api.url, { type: 'http', scheme: 'basic' }), name: 'bas', auth_value: 'alice:s3cret' });
  await callFunction(tp, token, 'bas_echo');
  t.equal(api.calls().at(-1)!.headers.authorization, `Basic ${Buffer.from('alice:s3cret').toString('base64')}`, 'basic: user:pass base64-encoded');

  await imported(tp, token, {
    spec: simple(api.url, { type: 'http', scheme: 'basic' }), name: 'custom', auth_scheme: 'bearer', auth_header: 'X-Auth', auth_value: 'cv',
  });
  await callFunction(tp, token, 'custom_echo');
  t.equal(api.calls().at(-1)!.headers['x-auth'], 'Bearer cv', 'auth_header and auth_scheme override the document');

  await imported(tp, token, { spec: simple(api.url, { type: 'http', scheme: 'basic' }), name: 'nothing', auth_scheme: 'none', auth_value: 'unused' });
  await callFunction(tp, token, 'nothing_echo');
  t.notOk(api.calls().at(-1)!.headers.authorization, 'none: no credential');
});

t.test('oauth2 client credentials: the token is fetched from the token URL and cached until expiry', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  let issued = 0;
  const tokenRequests: { authorization?: string; body: unknown }[] = [];
  api.route((request, response) => {
    if (request.path !== '/oauth/token') return false;
    tokenRequests.push({ authorization: request.headers.authorization, body: request.body });
    if (request.headers.authorization !== `Basic ${Buffer.from('app-id:app-secret').toString('base64')}`) {
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}');
      return true;
    }
    issued += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: `at-${issued}`, token_type: 'bearer', expires_in: 3600 }));
    return true;
  });
  api.route((request, response) => {
    if (request.path !== '/echo') return false;
    const ok = request.headers.authorization === `Bearer at-${issued}`;
    response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' }).end(JSON.stringify({ ok }));
    return true;
  });
  const spec = {
    ...simple(api.url, { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: { read: 'read' } } } }),
    security: [{ main: ['read'] }],
  };
  const preview = await imported(tp, token, { spec, name: 'oauth', auth_value: 'app-id:app-secret', base_url: api.url, auth_token_url: `${api.url}/oauth/token` });
  t.match(preview.spec.auth, { scheme: 'oauth2', token_url: `${api.url}/oauth/token`, value_set: true });

  const first = await callFunction(tp, token, 'oauth_echo');
  t.match(first.body.result, { status: 200, body: { ok: true } });
  const second = await callFunction(tp, token, 'oauth_echo');
  t.match(second.body.result, { status: 200, body: { ok: true } });
  t.equal(issued, 1, 'the token was fetched once and reused');
  t.match(tokenRequests[0].body, { grant_type: 'client_credentials', scope: 'read' });

  await imported(tp, token, { spec, name: 'oauthbad', auth_value: 'app-id:wrong', base_url: api.url, auth_token_url: `${api.url}/oauth/token` });
  const failed = await callFunction(tp, token, 'oauthbad_echo');
  t.equal(failed.status, 502);
  t.equal(failed.body.code, 'OAUTH2_TOKEN_FAILED');
  t.notMatch(JSON.stringify(failed.body), /wrong/);
});

t.test('credential resolution order: session, then client, then the default', async (t) => {
  const { tp, token, tenant } = await integrationsFixture(t, { captureLogs: true });
  const api = await startApiServer(t);
  await imported(tp, token, { spec: petstore(api.url), name: 'pets', prefix: 'pet', auth_value: 'default-secret-0' });
  const client = await tp.request({ method: 'POST', url: '/api/admin/clients', token, payload: { name: 'web' } });
  t.equal(client.status, 201);
  const clientId = client.body.id as number;

  const lastKey = () => api.calls().at(-1)!.headers['x-api-key'];
  let result = await callAs(tp, tenant, 'pet_list_pets', {}, { sessionId: 's-1', clientId });
  t.equal(result.credential, 'default');
  t.equal(lastKey(), 'default-secret-0', 'the function default when nothing else is stored');

  const stored = await tp.request({
    method: 'POST', url: `/clients/${clientId}/credentials`, token, payload: { service_name: 'pets', value: 'client-secret-1', header: 'X-API-Key' },
  });
  t.equal(stored.status, 201);
  t.same(Object.keys(stored.body).sort(), ['client_id', 'created_at', 'header', 'service_name', 'updated_at', 'value_set']);
  t.equal(stored.body.value_set, true);
  result = await callAs(tp, tenant, 'pet_list_pets', {}, { sessionId: 's-1', clientId });
  t.equal(result.credential, 'client');
  t.equal(lastKey(), 'client-secret-1', 'the client credential beats the default');

  const session = await tp.request({
    method: 'POST', url: '/api/sessions/s-1/credentials', token, payload: { service_name: 'pets', value: 'session-secret-2' },
  });
  t.equal(session.status, 201);
  result = await callAs(tp, tenant, 'pet_list_pets', {}, { sessionId: 's-1', clientId });
  t.equal(result.credential, 'session');
  t.equal(lastKey(), 'session-secret-2', 'the session credential beats the client\'s');

  await callAs(tp, tenant, 'pet_list_pets', {}, { sessionId: 's-other', clientId });
  t.equal(lastKey(), 'client-secret-1', 'another session of the client gets the client credential');
  await callAs(tp, tenant, 'pet_list_pets', {}, {});
  t.equal(lastKey(), 'default-secret-0', 'no session, no client: the default');

  // A client credential naming its own header.
  await tp.request({ method: 'POST', url: `/clients/${clientId}/credentials`, token, payload: { service_name: 'pets', value: 'client-secret-3', header: 'X-Other-Key' } });
  await callAs(tp, tenant, 'pet_list_pets', {}, { clientId });
  t.equal(api.calls().at(-1)!.headers['x-other-key'], 'client-secret-3');

  // Listing and deleting never show a value.
  const listed = await tp.request({ url: `/api/admin/clients/${clientId}/credentials`, token });
  t.equal(listed.status, 200);
  t.match(listed.body.items, [{ service_name: 'pets', header: 'X-Other-Key', value_set: true }]);
  const sessionList = await tp.request({ url: '/api/sessions/s-1/credentials', token });
  t.match(sessionList.body.items, [{ service_name: 'pets', value_set: true }]);
  t.equal((await tp.request({ method: 'DELETE', url: `/api/admin/clients/${clientId}/credentials/pets`, token })).status, 204);
  await callAs(tp, tenant, 'pet_list_pets', {}, { clientId });
  t.equal(lastKey(), 'default-secret-0', 'after deleting the client credential the default applies again');

  // Bad input.
  t.equal((await tp.request({ method: 'POST', url: '/clients/99999/credentials', token, payload: { service_name: 'pets', value: 'x' } })).status, 404);
  t.equal((await tp.request({ method: 'POST', url: `/clients/${clientId}/credentials`, token, payload: { service_name: 'pets' } })).status, 400);
  t.equal((await tp.request({ method: 'POST', url: `/clients/${clientId}/credentials`, token, payload: { service_name: 'pets', value: 'x', extra: 1 } })).status, 400);
  t.equal((await tp.request({ method: 'POST', url: `/clients/${clientId}/credentials`, payload: { service_name: 'pets', value: 'x' } })).status, 401);

  // No secret in any response or log line.
  const everything = JSON.stringify([
    await tp.request({ url: '/api/admin/integrations/specs', token }),
    await tp.request({ url: '/api/admin/integrations/functions/pet_list_pets', token }),
    await tp.request({ url: '/api/admin/functions', token }),
    listed.body, sessionList.body, stored.body, session.body,
  ]);
  for (const secret of ['default-secret-0', 'client-secret-1', 'session-secret-2', 'client-secret-3']) {
    t.notOk(everything.includes(secret), `${secret} is in no response`);
    t.notOk(tp.logs.some((line) => line.includes(secret)), `${secret} is in no log line`);
  }
  t.ok(tp.logs.length > 0, 'logs were captured');
});

t.test('a session\'s credentials belong to its owner; tenants are isolated', async (t) => {
  const { tp, token, tenant } = await integrationsFixture(t);
  const api = await startApiServer(t);
  await imported(tp, token, { spec: petstore(api.url), name: 'pets', prefix: 'pet', auth_value: 'd' });
  t.equal((await tp.request({ method: 'POST', url: '/api/sessions/s-9/credentials', token, payload: { service_name: 'pets', value: 'mine' } })).status, 201);

  const member = await tp.request({
    method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub: 'other', display_name: 'Other', organizations: [tenant], roles: [] },
  });
  t.equal(member.status, 201);
  const otherToken = (await tp.request({ method: 'POST', url: '/api/admin/users/other/tokens', token: tp.adminToken })).body.access_token;
  const stolen = await tp.request({ method: 'POST', url: '/api/sessions/s-9/credentials', token: otherToken, payload: { service_name: 'pets', value: 'theirs' } });
  t.equal(stolen.status, 403, 'another user cannot replace a session\'s credential');
  t.equal((await tp.request({ url: '/api/sessions/s-9/credentials', token: otherToken })).status, 403);
  await callAs(tp, tenant, 'pet_list_pets', {}, { sessionId: 's-9' });
  t.equal(api.calls().at(-1)!.headers['x-api-key'], 'mine');

  // Another tenant cannot reach this tenant's clients.
  const b = await tenantWithAdmin(tp, 'tenant-b');
  const client = await tp.request({ method: 'POST', url: '/api/admin/clients', token, payload: { name: 'web' } });
  const foreign = await tp.request({ method: 'POST', url: `/clients/${client.body.id}/credentials`, token: b.token, payload: { service_name: 'pets', value: 'x' } });
  t.equal(foreign.status, 404);
  t.equal((await tp.request({ url: `/api/admin/clients/${client.body.id}/credentials`, token: b.token })).status, 404);
});

t.test('auth_credential_source: the default credential from the tenant\'s secret store', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  await imported(tp, token, { spec: petstore(api.url), name: 'pets', prefix: 'pet', auth_credential_source: 'pets-key' });
  const missing = await callFunction(tp, token, 'pet_list_pets');
  t.equal(missing.status, 422);
  t.equal(missing.body.code, 'CREDENTIAL_SOURCE_MISSING');
  t.same(api.calls(), [], 'no request without the secret');

  const put = await tp.request({ method: 'PUT', url: '/api/admin/integrations/secrets/pets-key', token, payload: { value: 'from-store-1' } });
  t.equal(put.status, 201);
  t.notMatch(JSON.stringify(put.body), /from-store-1/);
  await callFunction(tp, token, 'pet_list_pets');
  t.equal(api.calls().at(-1)!.headers['x-api-key'], 'from-store-1');
  t.equal((await tp.request({ method: 'PUT', url: '/api/admin/integrations/secrets/pets-key', token, payload: { value: 'from-store-2' } })).status, 200);
  await callFunction(tp, token, 'pet_list_pets');
  t.equal(api.calls().at(-1)!.headers['x-api-key'], 'from-store-2', 'a replaced secret applies at once');
  const keys = await tp.request({ url: '/api/admin/integrations/secrets', token });
  t.match(keys.body.items, [{ key: 'pets-key', value_set: true }]);
  t.notMatch(JSON.stringify(keys.body), /from-store/);
});
