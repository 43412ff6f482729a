// A client's embed configuration: origins parsed as
// exact http(s) origins (each bad entry a 400 naming it, nothing changed),
// localhost only with EMBED_ALLOW_LOCALHOST_ORIGINS, fields left out kept,
// definition.updated on change, admins only (REST and GraphQL).
import t from 'tap';
import { parseOrigin } from 'agent-platform/sdk';
import { until } from 'agent-platform/sdk/testing';
import { embedFixture, ORIGIN } from './helpers.ts';

t.test('origin parsing', async (t) => {
  const cases: [string, string | RegExp][] = [
    ['https://shop.example', 'https://shop.example'],
    ['https://shop.example/', 'https://shop.example'],
    ['https://SHOP.Example', 'https://shop.example'],
    ['HTTPS://shop.example', 'https://shop.example'],
    ['https://shop.example:443', 'https://shop.example'],
    ['http://shop.example:80', 'http://shop.example'],
    ['https://shop.example:8443', 'https://shop.example:8443'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
    ['https://shop.example/path', /must not have a path/],
    ['https://shop.example/?q=1', /must not have a path/],
    ['https://shop.example?q=1', /must not have a query string/],
    ['https://shop.example#top', /must not have a fragment/],
    ['https://*.shop.example', /must not use wildcards/],
    ['*', /must start with http/],
    ['ftp://shop.example', /must start with http/],
    ['shop.example', /must start with http/],
    ['https://user:pw@shop.example', /must not carry credentials/],
    ['https://', /has no host/],
    ['http://localhost:3000', /localhost origin/],
    ['http://127.0.0.1:8080', /localhost origin/],
    ['http://app.localhost', /localhost origin/],
    ['http://[::1]:3000', /localhost origin/],
  ];
  for (const [raw, want] of cases) {
    const parsed = parseOrigin(raw, false);
    if (typeof want === 'string') t.same(parsed, { ok: true, origin: want }, raw);
    else t.match(parsed, { ok: false, reason: want }, raw);
  }
  t.same(parseOrigin('http://localhost:3000', true), { ok: true, origin: 'http://localhost:3000' }, 'localhost with the setting');
  t.same(parseOrigin('http://127.0.0.1:8080', true), { ok: true, origin: 'http://127.0.0.1:8080' });
});

t.test('GET and PUT the configuration', async (t) => {
  const f = await embedFixture(t);
  const { tp, token, clientId, webClientId } = f;
  const url = `/api/admin/clients/${clientId}/embed`;

  const never = await tp.request({ url: `/api/admin/clients/${webClientId}/embed`, token });
  t.equal(never.status, 200);
  t.match(never.body, { client_id: webClientId, enabled: false, allowed_origins: [], default_mode: 'launcher', service_account_client_id: null, version: 0 });

  for (const bad of ['https://shop.example/path', 'https://*.example', 'http://localhost:3000', 'https://a.example?x=1']) {
    const answer = await tp.request({ method: 'PUT', url, token, payload: { allowed_origins: [ORIGIN, bad] } });
    t.equal(answer.status, 400, bad);
    t.equal(answer.body.code, 'INVALID_ORIGIN');
    t.match(answer.body.message, bad.slice(0, 20), 'the message names the entry');
  }
  t.same((await tp.request({ url, token })).body.allowed_origins, [ORIGIN], 'nothing changed');
  t.equal((await tp.request({ method: 'PUT', url, token, payload: { default_mode: 'sideways' } })).status, 400);
  t.equal((await tp.request({ method: 'PUT', url, token, payload: { theme: { accent: 'red; background: url(x)' } } })).status, 400, 'a theme value is a plain CSS value');

  const put = await tp.request({ method: 'PUT', url, token, payload: { allowed_origins: ['https://Shop.example/', 'https://other.example:8443'], features: { voice: true } } });
  t.equal(put.status, 200);
  t.same(put.body.allowed_origins, ['https://shop.example', 'https://other.example:8443'], 'stored normalized');
  t.same(put.body.features, { uploads: false, history: true, feedback: true, voice: true }, 'features left out are kept');
  t.equal(put.body.enabled, true, 'fields left out are kept');

  const updates = await until(async () => {
    const events = await tp.request({ url: '/api/admin/triggers/events/recent?type=definition.updated', token });
    const found = events.body.items.filter((e: { data: { definition_type: string } }) => e.data?.definition_type === 'embed_config');
    return found.length > 0 && found;
  }, 'definition.updated of the configuration');
  t.match(updates[0].data, { name: f.clientKey, client_id: clientId });

  const member = await tp.request({ method: 'POST', url: '/api/admin/users', token, payload: { sub: 'acme-member', display_name: 'M', roles: [] } });
  t.equal(member.status, 201);
  const memberToken = (await tp.request({ method: 'POST', url: '/api/admin/users/acme-member/tokens', token })).body.access_token;
  t.equal((await tp.request({ url, token: memberToken })).status, 403, 'a member may not read it');
  t.equal((await tp.request({ method: 'PUT', url, token: memberToken, payload: { enabled: false } })).status, 403);
  t.equal((await tp.request({ url: '/api/admin/clients/999999/embed', token })).status, 404);

  const QUERY = (id: string) => `{ embedConfig(clientId: "${id}") { clientId client { clientKey } clientKey enabled allowedOrigins defaultMode features { voice } serviceAccountSubject } }`;
  const gql = await tp.request({ method: 'POST', url: '/graphql', token, payload: { query: QUERY(String(clientId)) } });
  t.same(gql.body.data.embedConfig, {
    clientId: String(clientId), client: { clientKey: f.clientKey },
    clientKey: f.clientKey, enabled: true, allowedOrigins: ['https://shop.example', 'https://other.example:8443'], defaultMode: 'LAUNCHER',
    features: { voice: true }, serviceAccountSubject: f.credential.service_account_client_id,
  });
  for (const id of ['999999', 'not-a-client', '0', '-1']) {
    t.same((await tp.request({ method: 'POST', url: '/graphql', token, payload: { query: QUERY(id) } })).body, { data: { embedConfig: null } }, `${id}: not found`);
  }
  const asMember = await tp.request({ method: 'POST', url: '/graphql', token: memberToken, payload: { query: `{ embedConfig(clientId: ${clientId}) { clientKey } }` } });
  t.equal(asMember.body.errors?.[0]?.extensions?.code, 'ROLE_REQUIRED');
});

t.test('localhost origins with EMBED_ALLOW_LOCALHOST_ORIGINS=true', async (t) => {
  const f = await embedFixture(t, { env: { EMBED_ALLOW_LOCALHOST_ORIGINS: 'true' } });
  const put = await f.tp.request({ method: 'PUT', url: `/api/admin/clients/${f.clientId}/embed`, token: f.token, payload: { allowed_origins: ['http://localhost:3000'] } });
  t.equal(put.status, 200);
  t.same(put.body.allowed_origins, ['http://localhost:3000']);
});
