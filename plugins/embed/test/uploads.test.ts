// Scoped uploads: the client has uploads enabled, the session is the caller's
// on that client, the Origin allowlisted; the file lands in a collection
// private to the session, listed nowhere else, searched by the agent only in
// that session, deleted with the session. Size limit (413) and types (415).
// Also the citation status route, an end-user surface citations adds.
import t from 'tap';
import type { FunctionCallContext } from 'agent-platform/sdk';
import { multipart } from '../../ingestion/test/helpers.ts';
import { waitFor } from '../../ingestion/test/helpers.ts';
import { embedFixture, embedToken, ORIGIN, page } from './helpers.ts';

const MANIFEST = 'test/fixtures/manifests/embed-uploads.yaml';

t.test('uploads into a session-private collection', async (t) => {
  const f = await embedFixture(t, { manifest: MANIFEST, env: { EMBED_UPLOAD_MAX_BYTES: '4096' } });
  const { tp, token, clientKey, clientId } = f;
  const q = `selected_client=${clientKey}`;
  const ada = await embedToken(f, 'ada');
  const bob = await embedToken(f, 'bob');
  const session = (await tp.request({ method: 'POST', url: `/api/sessions?${q}`, token: ada, payload: {}, headers: page() })).body.id as string;
  const other = (await tp.request({ method: 'POST', url: `/api/sessions?${q}`, token: ada, payload: {}, headers: page() })).body.id as string;
  const upload = (bearer: string, sessionId: string, filename: string, content: Buffer | string, headers: Record<string, string> = page()) => {
    const body = multipart([{ name: 'file', filename, content }]);
    return tp.request({ method: 'POST', url: `/api/embed/sessions/${sessionId}/uploads?${q}`, token: bearer, payload: body.payload, headers: { ...body.headers, ...headers } });
  };
  const text = 'The zebra protocol opens the north gate at dawn.';

  const disabled = await upload(ada, session, 'notes.txt', text);
  t.equal(disabled.status, 403, 'uploads disabled for the client');
  t.equal(disabled.body.code, 'EMBED_UPLOADS_DISABLED');
  await tp.request({ method: 'PUT', url: `/api/admin/clients/${clientId}/embed`, token, payload: { features: { uploads: true } } });

  const stored = await upload(ada, session, 'notes.txt', text);
  t.equal(stored.status, 201);
  t.match(stored.body, { filename: 'notes.txt', collection_id: Number });
  t.match(stored.body.document_id, /^[0-9a-f-]{36}$/);
  t.match(stored.body.context, /notes\.txt/);
  t.equal(stored.headers['access-control-allow-origin'], ORIGIN);
  await waitFor(tp, token, stored.body.document_id, ['ready']);

  t.equal((await upload(bob, session, 'x.txt', 'hello')).status, 404, 'another user\'s session');
  const foreign = await upload(ada, session, 'x.txt', 'hello', page('https://evil.example'));
  t.equal(foreign.status, 403, 'an origin not allowlisted');
  t.equal((await upload(ada, session, 'x.txt', 'hello', {})).status, 400, 'no Origin');
  const big = await upload(ada, session, 'big.txt', 'x'.repeat(5000));
  t.equal(big.status, 413, 'over EMBED_UPLOAD_MAX_BYTES');
  t.equal((await upload(ada, session, 'huge.txt', 'x'.repeat(200_000))).status, 413, 'far over: refused while reading');
  const binary = await upload(ada, session, 'tool.bin', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00, 0xff, 0xfe, 0x00, 0x00]));
  t.equal(binary.status, 415, 'a type ingestion does not take');
  const webBody = multipart([{ name: 'file', filename: 'a.txt', content: 'a' }]);
  const webClient = await tp.request({ method: 'POST', url: `/api/embed/sessions/${session}/uploads?selected_client=ck_acme_web`, token: ada, payload: webBody.payload, headers: { ...webBody.headers, ...page() } });
  t.equal(webClient.status, 403, 'another client');
  t.equal(webClient.body.message, 'Embed token is not authorized for this client');

  // Listed nowhere; searched only in that session.
  const collections = await tp.request({ url: '/api/admin/collections', token });
  t.same(collections.body.items, [], 'not listed to the tenant');
  const search = await tp.request({ url: '/api/admin/search?query=zebra%20protocol', token });
  t.same(search.body.results, [], 'not found by the tenant\'s search');
  const { withTenant, functions, logger } = tp.platform.core;
  const context = (id: string): FunctionCallContext => ({
    tenantId: 'acme', principal: { kind: 'super_admin', sub: 'super-admin' }, withTenant, logger, executionContext: { type: 'chat_session', id },
  });
  const found = await functions.call('search_documents', { query: 'zebra protocol' }, context(session)) as { results: { document_id: string }[] };
  t.ok(found.results.some((hit) => hit.document_id === stored.body.document_id), 'the session\'s agent finds it');
  const hidden = await functions.call('search_documents', { query: 'zebra protocol' }, context(other)) as { results: unknown[] };
  t.same(hidden.results, [], 'another session\'s does not');

  // Citation status (citations runs here): an end-user surface, about the token's own sessions only.
  const statusUrl = `/api/chat/${session}/citation/00000000-0000-4000-8000-000000000000/00000000-0000-4000-8000-000000000001/status`;
  const own = await tp.request({ url: statusUrl, token: ada, headers: page() });
  t.equal(own.status, 200, 'citation status of its own session');
  t.equal(own.body.found, false);
  const others = await tp.request({ url: statusUrl, token: bob, headers: page() });
  t.equal(others.status, 200);
  t.equal(others.body.found, false, 'another user\'s session: nothing');

  // Deleted with the session.
  t.equal((await tp.request({ method: 'DELETE', url: `/api/sessions/${session}?${q}`, token: ada, headers: page() })).status, 204);
  const left = await withTenant('acme', (trx) => trx.selectFrom('ingestion_collections').select('id').where('id', '=', stored.body.collection_id).execute());
  t.same(left, [], 'the private collection is gone');
  const documents = await withTenant('acme', (trx) => trx.selectFrom('ingestion_documents').select('id').where('id', '=', stored.body.document_id).execute());
  t.same(documents, [], 'its document too');
});
