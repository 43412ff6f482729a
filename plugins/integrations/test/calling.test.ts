// Calling imported functions against a real API server on loopback that
// records every request as it arrived on the wire: path, query, header and
// body mapping (both body rules), ${VAR} placeholders, 401 hints,
// credentials not carried across a redirect to another host, and private
// addresses refused unless the operator allows them.
import t from 'tap';
import { petstore } from '../../../test/fixtures/integrations/specs.ts';
import { callFunction, imported, importSpec, integrationsFixture, startApiServer } from './helpers.ts';

t.test('path, query, header and body arguments go where the spec says', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  await imported(tp, token, { spec: petstore(api.url), name: 'pets', prefix: 'pet', auth_value: 'k-123' });

  const read = await callFunction(tp, token, 'pet_get_pet', { petId: 'rex/1 b', x_request_id: 'req-7' });
  t.equal(read.status, 200, JSON.stringify(read.body));
  let wire = api.calls().at(-1)!;
  t.equal(wire.method, 'GET');
  t.equal(wire.path, '/pets/rex%2F1%20b', 'a path argument is substituted, percent-encoded');
  t.equal(wire.headers['x-request-id'], 'req-7', 'a header parameter goes into its header by its original name');
  t.equal(wire.headers['x-api-key'], 'k-123');
  t.match(read.body.result, { status: 200, ok: true, credential: 'default', body: { method: 'GET', path: '/pets/rex%2F1%20b' } });

  await callFunction(tp, token, 'pet_list_pets', { limit: 5, tags: ['a', 'b'], status: 'sold' });
  wire = api.calls().at(-1)!;
  t.equal(wire.path, '/pets');
  t.same(wire.query.getAll('tags'), ['a', 'b'], 'an array query parameter is exploded (form style)');
  t.equal(wire.query.get('limit'), '5');
  t.equal(wire.query.get('status'), 'sold');
  t.equal(wire.rawBody, '', 'a GET has no body');

  await callFunction(tp, token, 'pet_create_pet', { name: 'Rex', tag: null, age: 3 });
  wire = api.calls().at(-1)!;
  t.equal(wire.method, 'POST');
  t.match(wire.headers['content-type'], /^application\/json/);
  t.same(wire.body, { name: 'Rex', tag: null, age: 3 }, 'body properties are fields of the JSON body');
  t.equal(wire.search, '');

  const invalid = await callFunction(tp, token, 'pet_create_pet', { age: 3 });
  t.equal(invalid.status, 400, 'a missing required body field is refused before any request');
  const unknown = await callFunction(tp, token, 'pet_create_pet', { name: 'Rex', colour: 'red' });
  t.equal(unknown.status, 400, 'an unknown argument is refused when the body has properties');
  const calls = api.calls().length;
  t.equal(calls, 3, 'no request was sent for refused arguments');

  // Rule 1: additionalProperties: true and no properties — every other argument is a body field.
  await callFunction(tp, token, 'pet_put_pets_by_pet_id_notes', { petId: 'p1', version: 2, text: 'likes walks', priority: 1, nested: { a: [1] } });
  wire = api.calls().at(-1)!;
  t.equal(wire.method, 'PUT');
  t.equal(wire.path, '/pets/p1/notes');
  t.equal(wire.search, 'version=2');
  t.same(wire.body, { text: 'likes walks', priority: 1, nested: { a: [1] } });

  // Rule 2: an unresolvable body $ref yields no body parameters (nothing else is accepted).
  const photo = await callFunction(tp, token, 'pet_upload_photo', { petId: 'p1' });
  t.equal(photo.status, 200);
  wire = api.calls().at(-1)!;
  t.equal(wire.path, '/pets/p1/photos');
  t.equal(wire.rawBody, '');
  t.equal((await callFunction(tp, token, 'pet_upload_photo', { petId: 'p1', url: 'x' })).status, 400);

  // An operation with `security: []` gets no credential.
  await callFunction(tp, token, 'pet_get_status');
  t.notOk(api.calls().at(-1)!.headers['x-api-key'], 'security: [] sends no credential');
});

t.test('the API\'s answer comes back whatever its status; 401 and 403 carry a hint', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  api.route((request, response) => {
    if (request.path === '/pets/missing') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such pet"}');
      return true;
    }
    if (request.path.startsWith('/pets/') && request.headers['x-api-key'] !== 'right') {
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad key"}');
      return true;
    }
    return false;
  });
  await imported(tp, token, { spec: petstore(api.url), name: 'pets', prefix: 'pet', auth_value: 'wrong-key' });

  const missing = await callFunction(tp, token, 'pet_get_pet', { petId: 'missing' });
  t.equal(missing.status, 200);
  t.match(missing.body.result, { status: 404, ok: false, body: { error: 'no such pet' } });
  t.notOk(missing.body.result.hint);

  const refused = await callFunction(tp, token, 'pet_get_pet', { petId: 'p1' });
  t.match(refused.body.result, { status: 401, ok: false, credential: 'default' });
  t.match(refused.body.result.hint, /stored credential is probably wrong/);
  t.match(refused.body.result.hint, /\$\{VAR\}/);
  t.notMatch(JSON.stringify(refused.body), /wrong-key/, 'the hint never repeats the credential');
});

t.test('${VAR} in the auth value is resolved from the allowed environment at call time; missing sends nothing', async (t) => {
  const { tp, token } = await integrationsFixture(t, { env: { INTEGRATION_PETS: 'from-env-42' } });
  const api = await startApiServer(t);
  await imported(tp, token, { spec: petstore(api.url), name: 'pets', prefix: 'pet', auth_value: 'key-${INTEGRATION_PETS}' });
  const spec = await tp.request({ url: '/api/admin/integrations/specs', token });
  t.notMatch(JSON.stringify(spec.body), /INTEGRATION_PETS|from-env/, 'the auth value is never shown, even with placeholders');

  await callFunction(tp, token, 'pet_list_pets');
  t.equal(api.calls().at(-1)!.headers['x-api-key'], 'key-from-env-42');

  await imported(tp, token, { spec: petstore(api.url), name: 'pets2', prefix: 'pets2', auth_value: '${INTEGRATION_NOT_DEFINED_ANYWHERE}' });
  const before = api.calls().length;
  const failed = await callFunction(tp, token, 'pets2_list_pets');
  t.equal(failed.status, 422);
  t.equal(failed.body.code, 'AUTH_VARIABLE_MISSING');
  t.match(failed.body.message, /\$\{INTEGRATION_NOT_DEFINED_ANYWHERE\}.*no request was sent/);
  t.equal(api.calls().length, before, 'no request was sent');
});

t.test('a redirect to another host does not carry the credential', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  const other = await startApiServer(t);
  // Same address, other port: another origin.
  api.route((request, response) => {
    if (request.path !== '/pets') return false;
    response.writeHead(302, { location: `${other.url}/landing?x=1` }).end();
    return true;
  });
  await imported(tp, token, { spec: petstore(api.url), name: 'pets', prefix: 'pet', auth_value: 'secret-key-1' });
  const followed = await callFunction(tp, token, 'pet_list_pets', { limit: 1 });
  t.equal(followed.status, 200);
  t.match(followed.body.result, { status: 200, body: { path: '/landing' } });
  t.equal(api.calls().at(-1)!.headers['x-api-key'], 'secret-key-1');
  const landed = other.calls().at(-1)!;
  t.equal(landed.path, '/landing');
  t.notOk(landed.headers['x-api-key'], 'the credential header was dropped at the other origin');
});

t.test('private and loopback addresses are refused unless allowed', async (t) => {
  const { tp, token } = await integrationsFixture(t, { env: { INTEGRATIONS_ALLOW_PRIVATE_NETWORKS: 'false' } });
  const api = await startApiServer(t);
  api.serve('/openapi.json', petstore(api.url));

  const byUrl = await importSpec(tp, token, { source: `${api.url}/openapi.json`, name: 'pets' });
  t.equal(byUrl.status, 403);
  t.equal(byUrl.body.code, 'ADDRESS_NOT_ALLOWED');
  t.match(byUrl.body.message, /INTEGRATIONS_ALLOW_PRIVATE_NETWORKS/);

  await imported(tp, token, { spec: petstore(api.url), name: 'pets', prefix: 'pet', auth_value: 'k' });
  const call = await callFunction(tp, token, 'pet_list_pets');
  t.equal(call.status, 403);
  t.equal(call.body.code, 'ADDRESS_NOT_ALLOWED');
  t.same(api.calls(), [], 'nothing reached the loopback server');

  await imported(tp, token, { spec: petstore('http://169.254.169.254/latest'), name: 'meta', prefix: 'meta' });
  const metadata = await callFunction(tp, token, 'meta_list_pets');
  t.equal(metadata.status, 403, 'the cloud metadata address is refused');
});

t.test('a slow API times out and a large answer is cut off', async (t) => {
  const { tp, token } = await integrationsFixture(t, { env: { INTEGRATIONS_CALL_TIMEOUT_MS: '300', INTEGRATIONS_MAX_RESPONSE_BYTES: '2048' } });
  const api = await startApiServer(t);
  api.route((request, response) => {
    if (request.path === '/pets/slow') {
      const timer = setTimeout(() => response.writeHead(200).end('{}'), 3000);
      response.on('close', () => clearTimeout(timer));
      return true;
    }
    if (request.path === '/pets/big') {
      response.writeHead(200, { 'content-type': 'application/json' });
      // No content-length: the cap counts what arrives.
      for (let i = 0; i < 10; i++) response.write(`"${'x'.repeat(1000)}",`);
      response.end();
      return true;
    }
    return false;
  });
  await imported(tp, token, { spec: petstore(api.url), name: 'pets', prefix: 'pet', auth_value: 'k' });
  const slow = await callFunction(tp, token, 'pet_get_pet', { petId: 'slow' });
  t.equal(slow.status, 504);
  t.equal(slow.body.code, 'UPSTREAM_TIMEOUT');
  const big = await callFunction(tp, token, 'pet_get_pet', { petId: 'big' });
  t.equal(big.status, 502);
  t.equal(big.body.code, 'RESPONSE_TOO_LARGE');
  t.equal((await callFunction(tp, token, 'pet_get_pet', { petId: 'small' })).status, 200);
});
