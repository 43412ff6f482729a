import t from 'tap';
import { startTestPlatform, tenantWithAdmin } from '../harness.ts';

t.test('secrets never reach the log, responses after creation, or errors', async (t) => {
  const tp = await startTestPlatform(t, { captureLogs: true });
  const tenant = await tenantWithAdmin(tp, 'redact');
  const client = await tp.request({ method: 'POST', url: '/api/admin/clients', token: tenant.token, payload: { name: 'web' } });
  const created = await tp.request({ method: 'POST', url: '/api/admin/api-keys', token: tenant.token, payload: { name: 'k', client_id: client.body.id } });
  const apiKey: string = created.body.key;
  const account = await tp.request({
    method: 'POST', url: '/api/admin/users', token: tenant.token,
    payload: { sub: 'robot', display_name: 'Robot', service_account: true },
  });
  const clientSecret: string = account.body.client_secret;
  t.ok(apiKey && clientSecret, 'secrets are returned once, at creation');

  // Requests carrying every kind of secret, good and bad.
  await tp.request({ url: '/api/me', apiKey });
  await tp.request({ url: '/api/me', apiKey: `${apiKey.slice(0, -4)}beef` });
  await tp.request({ url: '/api/admin/clients', token: tenant.token, headers: { cookie: 'session=cookie-secret-value' } });
  await tp.request({ url: '/api/admin/clients', token: 'adm_wrong_but_secret_looking_token' });
  await tp.request({
    method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `grant_type=client_credentials&client_id=robot&client_secret=${clientSecret}`,
  });
  await tp.request({
    method: 'POST', url: '/api/admin/clients', token: tenant.token,
    payload: { name: 'x', client_secret: 'body-secret-value', password: 'hunter2-password' },
  });
  // A plugin logging an object with credentials in it.
  tp.platform.core.logger.warn(
    { credentials: 'plain-credential-value', request: { headers: { authorization: 'Bearer logged-token-value' } }, auth_value: 'auth-value-secret' },
    'plugin log line',
  );

  const listed = await tp.request({ url: '/api/admin/api-keys', token: tenant.token });
  t.notMatch(JSON.stringify(listed.body), apiKey, 'the key is not listed');
  const members = await tp.request({ url: '/api/admin/users', token: tenant.token });
  t.notMatch(JSON.stringify(members.body), clientSecret, 'the client secret is not listed');

  const log = tp.logs.join('\n');
  t.ok(tp.logs.length > 5, 'requests were logged');
  t.match(log, /\[REDACTED\]/);
  for (const secret of [
    apiKey, clientSecret, tenant.token, tp.adminToken, 'cookie-secret-value', 'adm_wrong_but_secret_looking_token',
    'body-secret-value', 'hunter2-password', 'plain-credential-value', 'logged-token-value', 'auth-value-secret',
    tp.env.PLATFORM_MASTER_KEY!,
  ]) {
    t.notOk(log.includes(secret), `log does not contain ${secret.slice(0, 12)}…`);
  }
});
