// Minting embed tokens: the
// client's embed credential or the super-admin, an allowlisted Origin, an
// enabled client, expires_in bounded, rate limited per client.
import t from 'tap';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { backendToken, clientCredentials, createClient, embedFixture, mint, ORIGIN } from './helpers.ts';

t.test('who may mint, from where, for how long', async (t) => {
  const f = await embedFixture(t, { env: { EMBED_TOKEN_MAX_TTL_SECONDS: '600' } });
  const { tp, token, clientKey, clientId } = f;
  const body = { client_key: clientKey, external_user_id: 'user-42', display_name: 'Ada' };
  const bearer = await backendToken(f);

  const ok = await mint(tp, bearer, { ...body, expires_in: 300 });
  t.equal(ok.status, 200);
  t.match(ok.body, { token_type: 'Bearer', expires_in: 300 });
  const claims = decodeJwt(ok.body.access_token);
  t.match(claims, { aud: 'agent-platform:embed', sub: `embed:${clientId}:user-42`, tenant_id: 'acme', client_id: clientId, external_user_id: 'user-42', name: 'Ada', azp: f.credential.service_account_client_id });
  t.equal(decodeProtectedHeader(ok.body.access_token).typ, 'embed+jwt');
  t.equal(Number(claims.exp) - Number(claims.iat), 300);
  const byDefault = decodeJwt((await mint(tp, bearer, body)).body.access_token);
  t.equal(Number(byDefault.exp) - Number(byDefault.iat), 600, 'the default lifetime, capped by the maximum');

  const tooLong = await mint(tp, bearer, { ...body, expires_in: 601 });
  t.equal(tooLong.status, 400);
  t.match(tooLong.body.message, /at most 600 seconds/, 'names the maximum');
  t.equal((await mint(tp, bearer, { ...body, external_user_id: '' })).status, 400, 'a bad body');
  t.equal((await mint(tp, bearer, { client_key: clientKey })).status, 400);
  t.equal((await mint(tp, bearer, { ...body, session_id: 'not-a-uuid' })).status, 400);

  t.equal((await mint(tp, undefined, body)).status, 401, 'no token');
  t.equal((await mint(tp, 'not.a.jwt', body)).status, 401, 'a bad token');
  t.equal((await mint(tp, bearer, { ...body, client_key: 'ck_unknown_key' })).status, 404, 'an unknown client key');
  const foreign = await mint(tp, bearer, body, 'https://evil.example');
  t.equal(foreign.status, 403, 'an origin not allowlisted');
  t.equal(foreign.body.code, 'ORIGIN_NOT_ALLOWED');
  t.equal((await mint(tp, bearer, body, null)).status, 400, 'no Origin');

  const user = await mint(tp, token, body);
  t.equal(user.status, 403, 'a tenant admin (a user) may not mint');
  t.equal(user.body.code, 'EMBED_MINT_FORBIDDEN');
  const other = await createClient(tp, token, 'kiosk', 'ck_acme_kiosk');
  await tp.request({ method: 'PUT', url: `/api/admin/clients/${other}/embed`, token, payload: { enabled: true, allowed_origins: [ORIGIN] } });
  const otherCredential = (await tp.request({ method: 'POST', url: `/api/admin/clients/${other}/embed-credentials`, token })).body;
  const otherBearer = (await clientCredentials(tp, otherCredential.service_account_client_id, otherCredential.client_secret)).body.access_token;
  const wrong = await mint(tp, otherBearer, body);
  t.equal(wrong.status, 403, 'another client\'s embed credential');
  t.equal(wrong.body.code, 'EMBED_MINT_FORBIDDEN');
  t.equal((await mint(tp, otherBearer, { ...body, client_key: 'ck_acme_kiosk' })).status, 200, 'its own client\'s');
  t.equal((await mint(tp, tp.adminToken, body)).status, 200, 'the super-admin');

  await tp.request({ method: 'PUT', url: `/api/admin/clients/${clientId}/embed`, token, payload: { enabled: false } });
  const disabled = await mint(tp, bearer, body);
  t.equal(disabled.status, 403, 'a disabled client');
  t.equal(disabled.body.code, 'EMBED_DISABLED');
});

t.test('minting is rate limited per client', async (t) => {
  const f = await embedFixture(t, { env: { EMBED_TOKEN_MINT_RATE_PER_SECOND: '0.001', EMBED_TOKEN_MINT_BURST: '2' } });
  const bearer = await backendToken(f);
  const body = { client_key: f.clientKey, external_user_id: 'u', display_name: 'U' };
  t.equal((await mint(f.tp, bearer, body)).status, 200);
  t.equal((await mint(f.tp, bearer, body)).status, 200);
  const limited = await mint(f.tp, bearer, body);
  t.equal(limited.status, 429);
  t.ok(Number(limited.headers['retry-after']) >= 1, 'Retry-After');
  t.equal((await mint(f.tp, bearer, body, 'https://evil.example')).status, 403, 'a refused request takes no token (it is refused first)');
});
