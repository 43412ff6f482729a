// The operator CLI: every `platform clients embed` command
// against a test server listening on loopback, `smoke` included (the whole
// embed-token flow, each step pass/fail, a temporary client cleaned up).
import t from 'tap';
import { runCli } from 'agent-platform/sdk/testing';
import { embedFixture, ORIGIN } from './helpers.ts';

t.test('clients embed commands against a running server', async (t) => {
  const f = await embedFixture(t, { listen: true });
  const { tp, token } = f;
  const cli = (...args: string[]) => runCli([...args, '--url', tp.url(''), '--json'], { platform: tp, env: { PLATFORM_TOKEN: token }, timeoutMs: 120_000 });

  const created = await cli('clients', 'embed', 'create', '--tenant', 'acme', '--name', 'docs', '--client-key', 'ck_acme_docs', '--enable', '--origin', 'https://docs.example', '--origin', 'https://www.docs.example', '--mode', 'inline', '--uploads', '--no-history', '--theme', '{"font_family":"Inter"}');
  t.equal(created.code, 0, created.stderr);
  t.match(created.json, { client_key: 'ck_acme_docs', enabled: true, allowed_origins: ['https://docs.example', 'https://www.docs.example'], default_mode: 'inline', features: { uploads: true, history: false }, theme: { font_family: 'Inter' } });
  const docsId = String((created.json as { client_id: number }).client_id);

  const configured = await cli('clients', 'embed', 'configure', '--tenant', 'acme', '--client-id', docsId, '--disable', '--no-uploads');
  t.equal(configured.code, 0, configured.stderr);
  t.match(configured.json, { enabled: false, features: { uploads: false }, default_mode: 'inline' });
  const badOrigin = await cli('clients', 'embed', 'configure', '--tenant', 'acme', '--client-id', docsId, '--origin', 'https://docs.example/path');
  t.not(badOrigin.code, 0, 'a bad origin fails');
  t.match(badOrigin.stderr + badOrigin.stdout, /must not have a path/);

  const shown = await cli('clients', 'embed', 'show', '--tenant', 'acme', '--client-id', String(f.clientId), '--manifest', '--origin', ORIGIN);
  t.equal(shown.code, 0, shown.stderr);
  t.match(shown.json, { client_key: f.clientKey, manifest: { client_key: f.clientKey, auth_modes: ['host-token', 'embed-token'] } });

  const urls = await cli('clients', 'embed', 'urls');
  t.match(urls.json, { custom_element: `${tp.url('')}/embed/v1/platform-chat.ce.js?v=0.3.0`, stylesheet: /platform-chat\.css/ });
  const snippet = await runCli(['clients', 'embed', 'snippet', '--client-key', f.clientKey, '--url', 'https://platform.example'], { platform: tp });
  t.match(snippet.stdout, /<platform-chat api-url="https:\/\/platform.example" client-key="ck_acme_shop"/);
  t.match(snippet.stdout, /getAccessToken/);
  t.notMatch(snippet.stdout, /token="/, 'no token in an attribute');

  const provisioned = await cli('clients', 'embed', 'credentials', 'provision', '--tenant', 'acme', '--client-id', docsId);
  t.equal(provisioned.code, 0, provisioned.stderr);
  t.match(provisioned.json, { created: true, client_secret: /^cs_/ });
  const rotated = await cli('clients', 'embed', 'credentials', 'rotate', '--tenant', 'acme', '--client-id', docsId);
  t.match(rotated.json, { rotated: true, client_secret: /^cs_/ });
  const revoked = await cli('clients', 'embed', 'credentials', 'revoke', '--tenant', 'acme', '--client-id', docsId);
  t.match(revoked.json, { revoked: true });

  const minted = await runCli(['clients', 'embed', 'token', '--url', tp.url(''), '--client-key', f.clientKey, '--origin', ORIGIN, '--external-user-id', 'ada',
    '--client-id', f.credential.service_account_client_id, '--client-secret', f.credential.client_secret, '--print-token'], { platform: tp });
  t.equal(minted.code, 0, minted.stderr);
  t.match(minted.stdout.trim(), /^[\w-]+\.[\w-]+\.[\w-]+$/, 'only the token');

  const smoke = await cli('clients', 'embed', 'smoke', '--tenant', 'acme', '--create-temp-client', '--origin', ORIGIN);
  t.equal(smoke.code, 0, `${smoke.stdout}\n${smoke.stderr}`);
  const steps = smoke.json as { step: string; result: string; detail: string }[];
  t.same(steps.map((s) => s.step), ['client', 'manifest', 'credentials', 'client credentials', 'mint', 'session', 'ask', 'cleanup']);
  t.ok(steps.every((s) => s.result === 'pass'), JSON.stringify(steps));
  const clients = await tp.request({ url: '/api/admin/clients', token });
  t.notOk(clients.body.items.some((c: { name: string }) => c.name.startsWith('embed-smoke-')), 'the temporary client is gone');

  const failing = await cli('clients', 'embed', 'smoke', '--tenant', 'acme', '--client-id', String(f.clientId), '--origin', 'https://evil.example');
  t.equal(failing.code, 1, 'a failed step fails the command');
  t.match(failing.json, [{ step: 'client', result: 'pass' }, { step: 'manifest', result: 'FAIL', detail: /403/ }]);
});

t.test('clients embed create with a refused origin creates nothing, and a retry makes one client', async (t) => {
  const f = await embedFixture(t, { listen: true });
  const { tp, token } = f;
  const cli = (...args: string[]) => runCli([...args, '--url', tp.url(''), '--json'], { platform: tp, env: { PLATFORM_TOKEN: token }, timeoutMs: 120_000 });
  const named = async () => (await tp.request({ url: '/api/admin/clients', token })).body.items.filter((c: { name: string }) => c.name === 'help');

  const refused = await cli('clients', 'embed', 'create', '--tenant', 'acme', '--name', 'help', '--enable', '--origin', 'https://help.example/path');
  t.equal(refused.code, 1);
  t.match(refused.stderr, /^error: check the configuration: HTTP 400 .*must not have a path/);
  t.same(await named(), [], 'no client was made');

  const made = await cli('clients', 'embed', 'create', '--tenant', 'acme', '--name', 'help', '--enable', '--origin', 'https://help.example');
  t.equal(made.code, 0, made.stderr);
  t.match(made.json, { enabled: true, allowed_origins: ['https://help.example'] });
  const again = await cli('clients', 'embed', 'create', '--tenant', 'acme', '--name', 'help', '--enable', '--origin', 'https://help.example');
  t.equal(again.code, 1, 'a retry does not make a second client of that name');
  t.equal(again.stderr, `error: a client named "help" exists (id ${made.json.client_id}): configure it with platform clients embed configure --client-id ${made.json.client_id}\n`);
  t.equal((await named()).length, 1);

  const check = await tp.request({ method: 'POST', url: '/api/admin/embed/config-check', token, payload: { allowed_origins: ['https://ok.example'] } });
  t.equal(check.status, 204);
  await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub: 'mia', display_name: 'Mia', organizations: ['acme'] } });
  const memberToken = (await tp.request({ method: 'POST', url: '/api/admin/users/mia/tokens', token: tp.adminToken })).body.access_token;
  const member = await tp.request({ method: 'POST', url: '/api/admin/embed/config-check', token: memberToken, payload: {} });
  t.equal(member.status, 403, 'admins only');
});
