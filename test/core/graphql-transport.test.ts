// GraphQL transports on a real loopback server: WebSocket (graphql-ws client
// over `ws`) with the tenant from the connection parameters or the upgrade's
// headers, refusals as close codes (4401 bad credentials, 4403 another
// tenant), the query limits, a citationVerified subscription receiving an
// event, and server stop closing the socket; over HTTP, a subscription without
// SSE and a GET without a query get clear 4xx answers; GraphiQL is served
// whole (no CDN) and GRAPHQL_GRAPHIQL turns it off.
import t from 'tap';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { startTestPlatform, tenantWithAdmin, until, type Tap, type TestPlatform } from '../harness.ts';
import { callFunction, citationsFixture, seedDocument } from '../../plugins/citations/test/helpers.ts';

const MANIFEST = 'test/fixtures/manifests/citations.yaml';
const TEXT = 'The reactor is inspected weekly; the inspection log is kept in the control room.';
const DEEP = '{ __schema { types { fields { type { fields { type { fields { type { fields { type { fields { type { fields { name } } } } } } } } } } } } } }';

const wsUrl = (tp: TestPlatform) => tp.url('/graphql').replace(/^http/, 'ws');

function client(t: Tap, tp: TestPlatform, connectionParams?: Record<string, unknown>, headers?: Record<string, string>): Client {
  const made = createClient({
    url: wsUrl(tp),
    connectionParams,
    retryAttempts: 0,
    lazy: true,
    webSocketImpl: class extends WebSocket {
      constructor(url: string, protocols: string | string[]) {
        super(url, protocols, { headers });
      }
    },
  });
  t.teardown(() => made.dispose());
  return made;
}

/** One operation's single result (a query), or the errors the server sent for it. */
function once(c: Client, query: string): Promise<{ data?: any; errors?: any[] }> {
  return new Promise((resolve, reject) => {
    let result: { data?: any; errors?: any[] } | undefined;
    c.subscribe({ query }, {
      next: (value) => { result = value as typeof result; },
      error: (err) => (Array.isArray(err) ? resolve({ errors: err }) : reject(err)),
      complete: () => resolve(result ?? {}),
    });
  });
}

/** Opens a raw graphql-transport-ws socket, sends connection_init, and reports the ack or the close. */
function handshake(tp: TestPlatform, payload: Record<string, unknown>): Promise<{ acked: boolean; code?: number; reason?: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl(tp), 'graphql-transport-ws');
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload })));
    socket.on('message', (data) => {
      if (JSON.parse(String(data)).type === 'connection_ack') {
        socket.close();
        resolve({ acked: true });
      }
    });
    socket.on('close', (code, reason) => resolve({ acked: false, code, reason: String(reason) }));
    socket.on('error', reject);
  });
}

t.test('WebSocket: queries with the tenant from connection parameters or headers; refusals close 4401 / 4403; limits apply', async (t) => {
  const { tp, admins } = await citationsFixture(t, { tenants: ['acme', 'globex'], listen: true });
  const [acme, globex] = admins;

  t.same(await once(client(t, tp), '{ viewer { kind } }'), { data: { viewer: null } }, 'anonymous: viewer is null');
  const viaParams = client(t, tp, { Authorization: `Bearer ${tp.adminToken}`, 'X-Tenant-ID': 'globex' });
  t.same(await once(viaParams, '{ viewer { kind tenantId } }'), { data: { viewer: { kind: 'super_admin', tenantId: 'globex' } } },
    'the tenant from the connection parameters (keys in any case)');
  const viaHeaders = client(t, tp, undefined, { authorization: `Bearer ${tp.adminToken}`, 'x-tenant-id': 'acme' });
  t.same(await once(viaHeaders, '{ viewer { kind tenantId } }'), { data: { viewer: { kind: 'super_admin', tenantId: 'acme' } } },
    'without parameters, the upgrade request\'s headers');
  const member = client(t, tp, { authorization: `Bearer ${acme.token}` });
  t.same(await once(member, '{ viewer { tenantId } citationStats { total } }'), { data: { viewer: { tenantId: 'acme' }, citationStats: { total: 0 } } },
    'a member of one tenant acts in it, and reads its data');

  const badToken = await handshake(tp, { authorization: 'Bearer not-a-token' });
  t.match(badToken, { acked: false, code: 4401, reason: /^INVALID_TOKEN: / }, 'a bad token is refused 4401');
  const badKey = await handshake(tp, { 'x-api-key': 'nope' });
  t.match(badKey, { acked: false, code: 4401, reason: /^INVALID_API_KEY: / }, 'a bad API key is refused 4401');
  const foreign = await handshake(tp, { authorization: `Bearer ${globex.token}`, 'x-tenant-id': 'acme' });
  t.match(foreign, { acked: false, code: 4403, reason: 'TENANT_FORBIDDEN: Not a member of tenant acme' }, 'a non-member is refused 4403');
  t.match(await handshake(tp, { authorization: `Bearer ${acme.token}`, 'x-tenant-id': 'acme' }), { acked: true }, 'a member is acknowledged');

  const deep = await once(member, DEEP);
  t.match(deep, { errors: [{ extensions: { code: 'QUERY_TOO_DEEP', limit: 12 } }] }, 'the depth limit applies');
  t.notOk(deep.data, 'nothing ran');
  const bomb = await once(member, `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: viewer { kind }`).join(' ')} }`);
  t.match(bomb, { errors: [{ extensions: { code: 'TOO_MANY_ALIASES' } }] }, 'the alias limit applies');
  const unknown = await once(member, '{ nothing }');
  t.match(unknown, { errors: [{ message: /Cannot query field "nothing"/ }] }, 'validation errors come back as errors');
  const guarded = await once(client(t, tp), '{ citationStats { total } }');
  t.match(guarded, { errors: [{ extensions: { code: 'UNAUTHENTICATED' } }] }, 'the field guards apply');

  // Credentials are checked again before each operation: a revoked API key closes the socket.
  const clientRow = await tp.request({ method: 'POST', url: '/api/admin/clients', token: acme.token, tenant: 'acme', payload: { name: 'ws-revoked' } });
  const created = await tp.request({ method: 'POST', url: '/api/admin/api-keys', token: acme.token, tenant: 'acme', payload: { name: 'ws', client_id: clientRow.body.id } });
  const closed: number[] = [];
  const keyed = createClient({
    url: wsUrl(tp), connectionParams: { 'x-api-key': created.body.key }, retryAttempts: 0, lazy: false,
    webSocketImpl: WebSocket, on: { closed: (event) => closed.push((event as { code: number }).code) },
  });
  t.teardown(() => keyed.dispose());
  t.same(await once(keyed, '{ viewer { kind tenantId } }'), { data: { viewer: { kind: 'api_key', tenantId: 'acme' } } }, 'an API key connects');
  const revoked = await tp.request({ method: 'DELETE', url: `/api/admin/api-keys/${created.body.id}`, token: acme.token, tenant: 'acme' });
  t.equal(revoked.status, 204);
  const after = await once(keyed, '{ viewer { kind } }').catch((err) => ({ closedWith: (err as { code?: number }).code }));
  t.notOk((after as { data?: unknown }).data, 'the next operation does not run');
  await until(async () => closed.length > 0, 'the socket closes');
  t.same(closed, [4401], 'closed 4401 once the key is revoked');

  // An upgrade of any other path is an ordinary request for hapi.
  const other = await new Promise<number>((resolve, reject) => {
    const socket = new WebSocket(tp.url('/api/nothing-here').replace(/^http/, 'ws'), 'graphql-transport-ws');
    socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.on('open', () => reject(new Error('upgraded')));
    socket.on('error', () => {});
  });
  t.equal(other, 404);
});

t.test('WebSocket: citationVerified pushes a verification of the tenant; stopping the server closes the socket', async (t) => {
  const { tp, admins } = await citationsFixture(t, { tenants: ['acme', 'globex'], listen: true });
  const doc = await seedDocument(tp, 'acme', 'Log.txt', [TEXT]);
  const theirs = await seedDocument(tp, 'globex', 'Theirs.txt', [TEXT]);
  const citation = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: doc.chunks[0].chunk_id, quoted_text: 'inspected weekly' });
  const foreign = await callFunction(tp, 'globex', 'resolve_citation', { chunk_id: theirs.chunks[0].chunk_id, quoted_text: 'inspected weekly' });

  const seen: any[] = [];
  let closed: { code: number; reason: string } | undefined;
  const c = createClient({
    url: wsUrl(tp), retryAttempts: 0, webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${admins[0].token}`, 'x-tenant-id': 'acme' },
    on: { closed: (event) => { closed = event as { code: number; reason: string }; } },
  });
  t.teardown(() => c.dispose());
  const arrivedAt: number[] = [];
  c.subscribe({ query: 'subscription { citationVerified { id verificationStatus chunk { text } } }' }, {
    next: (value) => { seen.push(value); arrivedAt.push(performance.now()); },
    error: (err) => seen.push({ failed: err }),
    complete: () => {},
  });
  const ids = () => seen.map((value) => value.data?.citationVerified?.id);
  // The subscription starts asynchronously: verify until the first event arrives.
  await until(async () => (await callFunction(tp, 'acme', 'verify_citation', { citation_id: citation.id })) && ids().includes(citation.id), 'the first event');
  t.match(seen.find((value) => value.data?.citationVerified?.id === citation.id), { data: { citationVerified: { verificationStatus: 'VERIFIED', chunk: { text: TEXT } } } });

  await callFunction(tp, 'globex', 'verify_citation', { citation_id: foreign.id });
  const before = seen.length;
  const sentAt = performance.now();
  await callFunction(tp, 'acme', 'verify_citation', { citation_id: citation.id });
  await until(async () => seen.length > before, 'the next event');
  t.comment(`verification to WebSocket event: ${(arrivedAt[before] - sentAt).toFixed(1)} ms`);
  t.notOk(ids().includes(foreign.id), 'never another tenant\'s');

  // GraphiQL's subscriptions: GET with Accept: text/event-stream, a stream that starts at once.
  const sse = new AbortController();
  const query = encodeURIComponent('subscription { citationVerified { id } }');
  const stream = await fetch(tp.url(`/graphql?query=${query}`), {
    signal: sse.signal, headers: { accept: 'text/event-stream', authorization: `Bearer ${admins[0].token}`, 'x-tenant-id': 'acme' },
  });
  t.equal(stream.status, 200, 'a GET subscription over SSE');
  t.match(stream.headers.get('content-type'), /text\/event-stream/);
  sse.abort();

  const stopping = performance.now();
  await tp.stop();
  const took = performance.now() - stopping;
  t.ok(took < 5000, `the server stops with a subscriber open (${took.toFixed(0)} ms)`);
  await until(async () => closed, 'the client to see the close', 5000);
  t.equal(closed?.code, 1001, 'the socket is closed as going away');
});

t.test('HTTP: a subscription without SSE is a 406 that says how; a GET without a query is a 400', async (t) => {
  const tp = await startTestPlatform(t, { env: { PLATFORM_MANIFEST: MANIFEST } });
  const admin = await tenantWithAdmin(tp, 'acme');
  const SUB = { query: 'subscription { citationVerified { id } }' };
  for (const accept of ['application/json', undefined, 'multipart/mixed']) {
    const response = await tp.request({ method: 'POST', url: '/graphql', token: admin.token, payload: SUB, headers: accept ? { accept } : {} });
    t.equal(response.status, 406, `Accept: ${accept ?? '(none)'}`);
    t.match(response.headers['content-type'], /application\/json/);
    t.match(response.body, { errors: [{ message: /Accept: text\/event-stream.*WebSocket/, extensions: { code: 'SUBSCRIPTION_TRANSPORT_REQUIRED' } }] });
  }
  const named = await tp.request({
    method: 'POST', url: '/graphql', token: admin.token, headers: { accept: 'application/json' },
    payload: { query: 'query Q { viewer { kind } } subscription S { citationVerified { id } }', operationName: 'Q' },
  });
  t.same(named.body, { data: { viewer: { kind: 'user' } } }, 'a query beside a subscription in the document still runs');

  for (const accept of [undefined, 'application/json', '*/*']) {
    const response = await tp.request({ method: 'GET', url: '/graphql', headers: accept ? { accept } : {} });
    t.equal(response.status, 400, `GET without a query, Accept: ${accept ?? '(none)'}`);
    t.match(response.body, { errors: [{ message: /needs a `query` parameter/, extensions: { code: 'QUERY_REQUIRED' } }] });
  }
  const get = await tp.request({ method: 'GET', url: '/graphql?query=%7Bviewer%7Bkind%7D%7D', token: admin.token });
  t.same(get.body, { data: { viewer: { kind: 'user' } } }, 'a GET with a query runs as before');
});

t.test('GraphiQL: served whole to a browser, no CDN; GRAPHQL_GRAPHIQL=false turns it off', async (t) => {
  const tp = await startTestPlatform(t, { env: { PLATFORM_MANIFEST: MANIFEST } });
  const page = await tp.request({ method: 'GET', url: '/graphql', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
  t.equal(page.status, 200);
  t.match(page.headers['content-type'], /text\/html/);
  const html = String(page.body);
  t.match(html, /renderYogaGraphiQL/, 'the GraphiQL page');
  t.notMatch(html, /unpkg\.com|jsdelivr\.net|cdnjs|esm\.sh/, 'no CDN URL');
  t.notMatch(html, /<script[^>]+src=|<link[^>]+href="(https?:)?\/\//, 'no external script or stylesheet');

  const off = await startTestPlatform(t, { env: { PLATFORM_MANIFEST: MANIFEST, GRAPHQL_GRAPHIQL: 'false' } });
  const refused = await off.request({ method: 'GET', url: '/graphql', headers: { accept: 'text/html' } });
  t.equal(refused.status, 400, 'off: a browser gets the 400 of a GET without a query');
  t.match(refused.body, { errors: [{ extensions: { code: 'QUERY_REQUIRED' } }] });
  await t.rejects(startTestPlatform(t, { env: { PLATFORM_MANIFEST: MANIFEST, GRAPHQL_GRAPHIQL: 'maybe' } }), /GRAPHQL_GRAPHIQL must be true or false/);
});
