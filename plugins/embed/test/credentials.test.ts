// Embed credentials: provision → rotate (the
// old secret refused) → revoke (the service account gone, its tokens refused,
// the embed tokens it minted ended). Only a human admin's bearer token or the
// super-admin. The secret is in the provision and rotate answers only: never
// in a later response, never in a log line.
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { backendToken, clientCredentials, embedFixture, embedToken, mint, ORIGIN, page } from './helpers.ts';

t.test('provision, rotate, revoke', async (t) => {
  const f = await embedFixture(t, { captureLogs: true, env: { PUBLIC_BASE_URL: 'https://platform.example' } });
  const { tp, token, clientId, clientKey, credential } = f;
  const url = `/api/admin/clients/${clientId}/embed-credentials`;

  t.match(credential, { client_id: clientId, client_key: clientKey, created: true, rotated: false, token_endpoint: 'https://platform.example/oauth/token' });
  t.match(credential.service_account_client_id, /^embed-acme-\d+-/);
  t.match(credential.client_secret, /^cs_/);
  t.match((credential as unknown as { embed_token_credentials_updated_at: string }).embed_token_credentials_updated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/, 'ISO 8601 without a zone');
  const again = await tp.request({ method: 'POST', url, token });
  t.equal(again.status, 409, 'one credential per client');
  t.equal(again.body.code, 'EMBED_CREDENTIALS_EXIST');

  const first = await backendToken(f);
  t.ok(first, 'the secret trades for a token');
  for (const url of ['/api/admin/clients', '/api/admin/agents', `/api/sessions?selected_client=${clientKey}`]) {
    const answer = await tp.request({ url, token: first, tenant: 'acme' });
    t.equal(answer.status, 403, `the credential's token is a member of no tenant: ${url}`);
  }
  const oldSecret = credential.client_secret;
  const rotated = await tp.request({ method: 'POST', url: `${url}/rotate`, token });
  t.equal(rotated.status, 200);
  t.match(rotated.body, { rotated: true, created: false, service_account_client_id: credential.service_account_client_id });
  t.not(rotated.body.client_secret, oldSecret);
  t.equal((await clientCredentials(tp, credential.service_account_client_id, oldSecret)).status, 401, 'the old secret is refused');
  const fresh = await clientCredentials(tp, credential.service_account_client_id, rotated.body.client_secret);
  t.equal(fresh.status, 200, 'the new one works');

  const minted = await embedToken({ ...f, credential: { ...credential, client_secret: rotated.body.client_secret } });
  t.equal((await tp.request({ url: `/api/sessions?selected_client=${clientKey}`, token: minted, headers: page() })).status, 200, 'an embed token works');

  // Nothing after creation shows a secret.
  const config = await tp.request({ url: `/api/admin/clients/${clientId}/embed`, token });
  t.notOk(JSON.stringify(config.body).includes('cs_'), 'the configuration shows no secret');
  t.equal(config.body.service_account_client_id, credential.service_account_client_id);

  const revoked = await tp.request({ method: 'DELETE', url, token });
  t.equal(revoked.status, 200);
  t.same(revoked.body, { client_id: clientId, client_key: clientKey, service_account_client_id: credential.service_account_client_id, revoked: true });
  t.equal((await clientCredentials(tp, credential.service_account_client_id, rotated.body.client_secret)).status, 401, 'the service account is gone');
  const users = await tp.platform.core.db.selectFrom('users').select('sub').where('sub', '=', credential.service_account_client_id).execute();
  t.same(users, [], 'its user row is deleted');
  const late = await mint(tp, fresh.body.access_token, { client_key: clientKey, external_user_id: 'u', display_name: 'U' });
  t.equal(late.status, 403, 'its token minted before revocation mints nothing now');
  const ended = await tp.request({ url: `/api/sessions?selected_client=${clientKey}`, token: minted, headers: page() });
  t.equal(ended.status, 401, 'the embed tokens it minted stop working');
  t.equal(ended.body.code, 'EMBED_TOKEN_REVOKED');
  t.equal((await tp.request({ method: 'DELETE', url, token })).status, 404, 'nothing left to revoke');
  t.equal((await tp.request({ method: 'POST', url: `${url}/rotate`, token })).status, 404, 'nothing to rotate');
  t.equal((await tp.request({ url: `/api/embed/manifest/${clientKey}`, headers: { origin: ORIGIN } })).body.auth_modes.includes('embed-token'), false, 'the manifest no longer offers embed tokens');

  const types = ['embed.credentials.provisioned', 'embed.credentials.rotated', 'embed.credentials.revoked'];
  for (const type of types) {
    const seen = await until(async () => {
      const listed = await tp.request({ url: `/api/admin/triggers/events/recent?type=${type}`, token });
      return listed.body.items.length > 0 && listed.body.items;
    }, type);
    t.match(seen[0].data, { client_id: clientId, client_key: clientKey, service_account_client_id: credential.service_account_client_id }, type);
    t.notOk(JSON.stringify(seen[0]).includes('cs_'), `${type} carries no secret`);
  }

  const secrets = [oldSecret, rotated.body.client_secret, first, fresh.body.access_token, minted];
  t.ok(tp.logs.length > 0, 'logs were captured');
  for (const secret of secrets) t.notOk(tp.logs.some((line) => line.includes(secret)), 'no secret or token in any log line');
});

t.test('only a human admin or the super-admin manages credentials', async (t) => {
  const f = await embedFixture(t);
  const { tp, token, clientId, webClientId } = f;
  const url = (id: number) => `/api/admin/clients/${id}/embed-credentials`;
  const key = await tp.request({ method: 'POST', url: '/api/admin/api-keys', token, payload: { name: 'k', client_id: webClientId } });
  t.equal(key.status, 201);
  const byKey = await tp.request({ method: 'POST', url: url(webClientId), apiKey: key.body.key });
  t.equal(byKey.status, 403, 'an API key');

  const sa = await tp.request({ method: 'POST', url: '/api/admin/users', token, payload: { sub: 'acme-robot', display_name: 'Robot', roles: ['admin'], service_account: true } });
  t.equal(sa.status, 201);
  const saToken = (await clientCredentials(tp, 'acme-robot', sa.body.client_secret)).body.access_token;
  for (const [method, path] of [['POST', url(webClientId)], ['POST', `${url(clientId)}/rotate`], ['DELETE', url(clientId)]]) {
    const answer = await tp.request({ method, url: path, token: saToken });
    t.equal(answer.status, 403, `a service account (even an admin one): ${method} ${path}`);
    t.equal(answer.body.code, 'HUMAN_ADMIN_REQUIRED');
  }
  const embedBearer = await backendToken(f);
  t.equal((await tp.request({ method: 'POST', url: `${url(clientId)}/rotate`, token: embedBearer, tenant: 'acme' })).status, 403, 'the embed credential itself (a member of no tenant)');
  const embedTokenAnswer = await tp.request({ method: 'POST', url: url(webClientId), token: await embedToken(f) });
  t.equal(embedTokenAnswer.status, 403, 'an embed token');

  const bySuper = await tp.request({ method: 'POST', url: url(webClientId), token: tp.adminToken, tenant: 'acme' });
  t.equal(bySuper.status, 201, 'the super-admin');
  t.equal((await tp.request({ method: 'POST', url: url(999999), token })).status, 404, 'an unknown client');
});
