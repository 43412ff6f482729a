// The embed principal: an embed token reaches only the end-user surfaces,
// scoped to its client and external user (another user's session 404, another
// client 403 "Embed token is not authorized for this client", a token minted
// for a session works for that session only), never admin
// routes or GraphQL tenant data; expired 401. With X-Platform-Embed: 1 the
// client's origin policy applies (host tokens too), with CORS headers and
// preflight for allowlisted origins. Sessions list active ones, most recent
// first, with UTC timestamps without a zone suffix (sessions and messages, as
// for every caller); session events name client and external user.
import t from 'tap';
import { SignJWT, decodeJwt } from 'jose';
import { until } from 'agent-platform/sdk/testing';
import { embedFixture, embedToken, ORIGIN, page } from './helpers.ts';

t.test('an embed token on the end-user surfaces', async (t) => {
  const f = await embedFixture(t);
  const { tp, token, clientKey, clientId } = f;
  const ada = await embedToken(f, 'ada');
  const bob = await embedToken(f, 'bob');
  const q = `selected_client=${clientKey}`;
  const req = (bearer: string, method: string, url: string, payload?: unknown, headers: Record<string, string> = page()) =>
    tp.request({ method, url, token: bearer, payload, headers });

  const created = await req(ada, 'POST', `/api/sessions?${q}`, { title: 'First' });
  t.equal(created.status, 201);
  t.equal(created.headers['access-control-allow-origin'], ORIGIN, 'CORS for the allowlisted origin');
  t.match(String(created.headers.vary), /origin/i);
  const NO_ZONE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/;
  t.match(created.body.created_at, NO_ZONE, 'UTC without a zone suffix, as for a user token');
  const second = await req(ada, 'POST', `/api/sessions?${q}`, { title: 'Second' });
  const third = await req(ada, 'POST', `/api/sessions?${q}`, { title: 'Third' });
  t.equal((await req(ada, 'DELETE', `/api/sessions/${third.body.id}?${q}`)).status, 204);
  const list = await req(ada, 'GET', `/api/sessions?${q}`);
  t.equal(list.status, 200);
  t.same(list.body.items.map((s: { title: string }) => s.title), ['Second', 'First'], 'active only, most recent first');
  for (const session of list.body.items) t.match(session.last_active, NO_ZONE);

  // Another external user: not told the session exists.
  t.equal((await req(bob, 'GET', `/api/sessions/${created.body.id}/messages?${q}`)).status, 404);
  t.equal((await req(bob, 'PATCH', `/api/sessions/${created.body.id}?${q}`, { title: 'x' })).status, 404);
  t.equal((await req(bob, 'DELETE', `/api/sessions/${created.body.id}?${q}`)).status, 404);
  t.equal((await req(bob, 'POST', `/api/chat/${created.body.id}/cancel?${q}`)).status, 404, 'cancel: the same authorization as chat');
  t.equal((await req(bob, 'POST', `/api/chat/${created.body.id}?${q}`, { content: 'hi' })).status, 404);
  t.same((await req(bob, 'GET', `/api/sessions?${q}`)).body.items, [], 'bob lists none of ada\'s');

  // Another client: 403 with its fixed text, also when selected_client is left out (the default client).
  const otherClient = await req(ada, 'GET', '/api/sessions?selected_client=ck_acme_web');
  t.equal(otherClient.status, 403);
  t.equal(otherClient.body.message, 'Embed token is not authorized for this client');
  const feedback = await req(ada, 'POST', `/api/chat/${created.body.id}/feedback`, { message_id: 1, rating: 1 });
  t.equal(feedback.status, 403, 'feedback without selected_client for a non-default client');
  t.equal(feedback.body.message, 'Embed token is not authorized for this client');

  // Chat: the answer streams; the session events name client and external user.
  const asked = await req(ada, 'POST', `/api/chat/${created.body.id}?${q}`, { content: 'Hello?' });
  t.equal(asked.status, 200);
  t.equal(asked.headers['access-control-allow-origin'], ORIGIN);
  t.match(String(asked.body), /"type":"done"/);
  const messages = await req(ada, 'GET', `/api/sessions/${created.body.id}/messages?${q}`);
  t.equal(messages.status, 200);
  t.ok(messages.body.items.length >= 2, 'the question and its answer');
  for (const message of messages.body.items) t.match(message.created_at, NO_ZONE, 'a message\'s timestamp without a zone suffix');
  const cancel = await req(ada, 'POST', `/api/chat/${created.body.id}/cancel?${q}`);
  t.equal(cancel.status, 200);
  t.equal(cancel.body.status, 'no_active_turn');
  const events = await until(async () => {
    const listed = await tp.request({ url: '/api/admin/triggers/events/recent?type=chat.session.created', token });
    return listed.body.items.length >= 3 && listed.body.items;
  }, 'chat.session.created');
  t.match(events[0].data, { client_id: clientId, external_user_id: 'ada' });

  // Admin routes and GraphQL tenant data: 403.
  for (const url of ['/api/admin/clients', `/api/admin/clients/${clientId}/embed`, '/api/admin/triggers', '/api/admin/agents']) {
    const answer = await req(ada, 'GET', url);
    t.equal(answer.status, 403, url);
    t.equal(answer.body.code, 'EMBED_TOKEN_NOT_ALLOWED', url);
  }
  const gql = await req(ada, 'POST', '/graphql', { query: '{ clients { edges { node { clientKey } } } }' });
  t.ok(gql.body.errors?.length, 'GraphQL tenant data refused');
  t.notOk(gql.body.data?.clients, 'no data');
  const viewer = await req(ada, 'POST', '/graphql', { query: '{ viewer { kind } }' });
  t.equal(viewer.body.data?.viewer?.kind, 'embed', 'viewer says who it is');

  // Expired: 401.
  const live = decodeJwt(ada);
  const expired = await new SignJWT({ tenant_id: 'acme', client_id: clientId, external_user_id: 'ada', name: 'Ada' })
    .setProtectedHeader({ alg: 'HS256', typ: 'embed+jwt' }).setSubject(`embed:${clientId}:ada`).setIssuer(String(live.iss)).setAudience('agent-platform:embed')
    .setIssuedAt(Math.floor(Date.now() / 1000) - 600).setExpirationTime(Math.floor(Date.now() / 1000) - 60)
    .sign(tp.platform.core.secrets.deriveKey('embed-jwt'));
  t.equal((await req(expired, 'GET', `/api/sessions?${q}`)).status, 401, 'an expired token');
  const forged = await new SignJWT({ tenant_id: 'acme', client_id: clientId, external_user_id: 'ada', name: 'Ada' })
    .setProtectedHeader({ alg: 'HS256', typ: 'embed+jwt' }).setSubject(`embed:${clientId}:ada`).setIssuer(String(live.iss)).setAudience('agent-platform:embed')
    .setExpirationTime('5m').sign(tp.platform.core.secrets.deriveKey('platform-jwt'));
  t.equal((await req(forged, 'GET', `/api/sessions?${q}`)).status, 401, 'signed with the user-token key');

  // A token minted for one session.
  const bound = await embedToken(f, 'ada', { session_id: created.body.id });
  t.equal((await req(bound, 'GET', `/api/sessions/${created.body.id}/messages?${q}`)).status, 200, 'its session');
  t.equal((await req(bound, 'GET', `/api/sessions/${second.body.id}/messages?${q}`)).status, 404, 'another session of the same user');
  t.equal((await req(bound, 'POST', `/api/chat/${second.body.id}?${q}`, { content: 'hi' })).status, 404);
  t.equal((await req(bound, 'POST', `/api/sessions?${q}`, {})).status, 403, 'no new session');

  // Disabled client: its tokens stop.
  await tp.request({ method: 'PUT', url: `/api/admin/clients/${clientId}/embed`, token, payload: { enabled: false } });
  const off = await req(ada, 'GET', `/api/sessions?${q}`);
  t.equal(off.status, 403);
  t.equal(off.body.code, 'EMBED_DISABLED');
});

t.test('the origin policy with X-Platform-Embed, for embed and host tokens', async (t) => {
  const f = await embedFixture(t);
  const { tp, token, clientKey } = f;
  const ada = await embedToken(f, 'ada');
  const q = `selected_client=${clientKey}`;
  const get = (bearer: string, headers: Record<string, string>, query = q) => tp.request({ url: `/api/sessions?${query}`, token: bearer, headers });

  t.equal((await get(ada, page())).status, 200);
  const foreign = await get(ada, page('https://evil.example'));
  t.equal(foreign.status, 403, 'an origin not allowlisted');
  t.equal(foreign.body.code, 'ORIGIN_NOT_ALLOWED');
  t.notOk(foreign.headers['access-control-allow-origin']);
  t.equal((await get(ada, { 'x-platform-embed': '1' })).status, 403, 'the marker without an Origin');
  t.equal((await get(ada, { origin: 'https://evil.example' })).status, 403, 'an embed token from a foreign page, marker or not');
  t.equal((await get(ada, {})).status, 200, 'a host backend (no Origin, no marker)');

  // A host token (a platform user token) follows the same policy with the marker.
  const host = await get(token, page());
  t.equal(host.status, 200);
  t.equal(host.headers['access-control-allow-origin'], ORIGIN);
  t.equal((await get(token, page('https://evil.example'))).status, 403, 'host token from a foreign origin');
  t.equal((await get(token, page(), '')).status, 400, 'the marker needs selected_client');
  t.equal((await get(token, page(), 'selected_client=ck_acme_web')).status, 404, 'a client that is not embeddable');
  t.equal((await get(token, { origin: 'https://evil.example' })).status, 200, 'without the marker a host token is an ordinary user token');

  // Preflight of an end-user route.
  const preflight = await tp.request({ method: 'OPTIONS', url: `/api/sessions?${q}`, headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, x-platform-embed' } });
  t.equal(preflight.status, 204);
  t.equal(preflight.headers['access-control-allow-origin'], ORIGIN);
  t.match(String(preflight.headers['access-control-allow-headers']), /x-platform-embed/);
  const refused = await tp.request({ method: 'OPTIONS', url: `/api/sessions?${q}`, headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
  t.equal(refused.status, 403);
  for (const bad of ['%00', 'x'.repeat(300), '%FF', 'a%20b']) {
    const answer = await tp.request({ method: 'OPTIONS', url: `/api/sessions?selected_client=${bad}`, headers: { origin: ORIGIN, 'access-control-request-method': 'GET' } });
    t.ok(answer.status < 500, `a preflight naming a malformed client (${bad.slice(0, 10)}) is no 5xx`);
    t.notOk(answer.headers['access-control-allow-origin']);
  }
  const adminPreflight = await tp.request({ method: 'OPTIONS', url: '/api/admin/clients', headers: { origin: ORIGIN, 'access-control-request-method': 'GET' } });
  t.notOk(adminPreflight.headers['access-control-allow-origin'], 'no CORS for admin routes');
});
