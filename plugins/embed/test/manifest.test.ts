// The public manifest: Origin
// required and allowlisted, the client configured and enabled, CORS headers
// and preflight, served from the in-process cache and refreshed on change.
import t from 'tap';
import { embedFixture, ORIGIN } from './helpers.ts';

t.test('manifest: the rows of section 7, CORS, preflight, cache', async (t) => {
  const f = await embedFixture(t);
  const { tp, token, clientKey, clientId } = f;
  const read = (origin?: string, key = clientKey) =>
    tp.request({ url: `/api/embed/manifest/${key}`, headers: origin === undefined ? {} : { origin } });

  const ok = await read(ORIGIN);
  t.equal(ok.status, 200);
  t.same(ok.body, {
    client_key: clientKey, client_id: clientId, tenant: 'acme', tenant_display_name: 'acme', default_mode: 'launcher',
    auth_modes: ['host-token', 'embed-token'], features: { uploads: false, history: true, feedback: true, voice: false }, theme: {},
  });
  t.equal(ok.headers['access-control-allow-origin'], ORIGIN);
  t.match(String(ok.headers.vary), /origin/i);
  // The second read is answered before routing from the cache (manifest-fast-path.ts): the same response.
  const again = await read(ORIGIN);
  t.equal(again.status, 200);
  t.same(again.body, ok.body, 'a cached read answers the same manifest');
  for (const header of ['access-control-allow-origin', 'vary', 'cache-control', 'content-type']) {
    t.equal(again.headers[header], ok.headers[header], `a cached read sends the same ${header}`);
  }

  const missing = await read();
  t.equal(missing.status, 400, 'no Origin');
  t.equal(missing.body.code, 'ORIGIN_REQUIRED');
  for (const bad of ['null', 'https://shop.example/path', 'ftp://shop.example', 'not an origin']) {
    const answer = await read(bad);
    t.equal(answer.status, 400, `malformed Origin ${bad}`);
    t.notOk(answer.headers['access-control-allow-origin']);
  }
  t.equal((await read('https://SHOP.example:443')).status, 200, 'the same origin written otherwise');
  const foreign = await read('https://evil.example');
  t.equal(foreign.status, 403, 'origin not allowed');
  t.equal(foreign.body.code, 'ORIGIN_NOT_ALLOWED');
  t.notOk(foreign.headers['access-control-allow-origin']);
  const unknown = await read(ORIGIN, 'ck_nobody_here');
  t.equal(unknown.status, 404, 'unknown client key');
  t.equal((await read(ORIGIN, `ck_acme_web`)).status, 404, 'a client never configured for embedding');

  // Preflight: answered for allowlisted origins only.
  const preflight = await tp.request({ method: 'OPTIONS', url: `/api/embed/manifest/${clientKey}`, headers: { origin: ORIGIN, 'access-control-request-method': 'GET' } });
  t.equal(preflight.status, 204);
  t.equal(preflight.headers['access-control-allow-origin'], ORIGIN);
  const refused = await tp.request({ method: 'OPTIONS', url: `/api/embed/manifest/${clientKey}`, headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
  t.equal(refused.status, 403);
  t.notOk(refused.headers['access-control-allow-origin']);
  const malformed = await tp.request({ method: 'OPTIONS', url: '/api/embed/manifest/%E0%A4%A', headers: { origin: ORIGIN, 'access-control-request-method': 'GET' } });
  t.ok(malformed.status < 500, 'a malformed key in a preflight is no 5xx');

  // Cached: a change behind the plugin's back is not read (no database round trip) ...
  await tp.platform.core.withTenant('acme', (trx) => trx.updateTable('embed_configs').set({ default_mode: 'inline' }).where('client_id', '=', clientId).execute());
  t.equal((await read(ORIGIN)).body.default_mode, 'launcher', 'served from the cache');
  // ... a change through the API is seen at once.
  const put = await tp.request({ method: 'PUT', url: `/api/admin/clients/${clientId}/embed`, token, payload: { default_mode: 'inline', theme: { font_family: 'Inter', accent: '#155eef' }, features: { uploads: true } } });
  t.equal(put.status, 200);
  const changed = await read(ORIGIN);
  t.equal(changed.body.default_mode, 'inline');
  t.same(changed.body.theme, { font_family: 'Inter', accent: '#155eef' });
  t.equal(changed.body.features.uploads, true);

  const disabled = await tp.request({ method: 'PUT', url: `/api/admin/clients/${clientId}/embed`, token, payload: { enabled: false } });
  t.equal(disabled.body.enabled, false);
  const off = await read(ORIGIN);
  t.equal(off.status, 403, 'embeds disabled');
  t.equal(off.body.code, 'EMBED_DISABLED');
});

t.test('manifest reads are rate limited per client key', async (t) => {
  const f = await embedFixture(t, { env: { EMBED_MANIFEST_RATE_PER_SECOND: '0.001', EMBED_MANIFEST_BURST: '2' } });
  const read = () => f.tp.request({ url: `/api/embed/manifest/${f.clientKey}`, headers: { origin: ORIGIN } });
  t.equal((await read()).status, 200);
  t.equal((await read()).status, 200);
  const limited = await read();
  t.equal(limited.status, 429);
  t.equal(limited.body.code, 'RATE_LIMITED');
  t.ok(Number(limited.headers['retry-after']) >= 1, 'Retry-After');
});
