// GraphQL: the citations connection (filters, cursor pages stable while
// citations are added, backward pages with totalCount), citation(id) with the chunk text and the current
// document (null once deleted), its collection and revision as ingestion's objects (FORBIDDEN to an API
// key, as the chunk and the document), citationStats, bad input, and the
// citationVerified subscription over SSE on a real loopback server (only the
// subscribed tenant's verifications arrive).
import t from 'tap';
import pg from 'pg';
import { startTestPlatform } from 'agent-platform/sdk/testing';
import { MANIFEST, apiKey, callFunction, citationsFixture, deleteDocument, purgeChunks, seedDocument, showChunksFunction } from './helpers.ts';
import type { TestPlatform } from 'agent-platform/sdk/testing';

const TEXT = 'The reactor is inspected weekly; the inspection log is kept in the control room.';

async function gql(tp: TestPlatform, token: string, query: string, variables: Record<string, unknown> = {}, tenant = 'acme') {
  const res = await tp.request({ method: 'POST', url: '/graphql', token, tenant, payload: { query, variables } });
  return res.body as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };
}

const PAGE = `query($first: Int, $after: String, $last: Int, $before: String, $filter: CitationFilter) {
  citations(first: $first, after: $after, last: $last, before: $before, filter: $filter) {
    edges { cursor node { id documentName verificationStatus matchType chunk { text } collection { name } revision { id } } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    totalCount
  }
}`;

t.test('citations: a cursor connection stable under inserts, with filters', async (t) => {
  const { tp, admins } = await citationsFixture(t);
  const token = admins[0].token;
  const doc = await seedDocument(tp, 'acme', 'Reactor Log.txt', [TEXT]);
  const chunk = doc.chunks[0];
  const context = { type: 'workflow_execution', id: 'wf-gql' };
  await showChunksFunction(tp)('acme', context, [chunk.chunk_id]);
  const cite = (quote?: string) => callFunction(tp, 'acme', 'resolve_citation', { chunk_id: chunk.chunk_id, ...(quote ? { quoted_text: quote } : {}) }, context);
  const made: string[] = [];
  for (let i = 0; i < 5; i += 1) made.push((await cite(i % 2 === 0 ? 'inspected weekly' : undefined)).id);

  const first = await gql(tp, token, PAGE, { first: 2 });
  t.notOk(first.errors);
  const page1 = first.data.citations;
  t.same(page1.edges.map((e: any) => e.node.id), [made[4], made[3]]);
  t.match(page1.pageInfo, { hasNextPage: true, hasPreviousPage: false });
  t.match(page1.edges[0].node, { documentName: 'Reactor Log.txt', verificationStatus: 'VERIFIED', matchType: 'EXACT', chunk: { text: TEXT } });
  t.match(page1.edges[1].node, { verificationStatus: 'UNVERIFIED', matchType: null });

  // New citations arrive between pages: the next pages neither repeat nor skip.
  await cite('kept in the control room');
  await cite();
  const seen = page1.edges.map((e: any) => e.node.id);
  let after = page1.pageInfo.endCursor;
  for (;;) {
    const next = (await gql(tp, token, PAGE, { first: 2, after })).data.citations;
    seen.push(...next.edges.map((e: any) => e.node.id));
    t.equal(next.pageInfo.hasPreviousPage, true);
    if (!next.pageInfo.hasNextPage) break;
    after = next.pageInfo.endCursor;
  }
  t.same(seen, [made[4], made[3], made[2], made[1], made[0]]);

  // Backward: the end of the list (the oldest), then the page before it, in list order (newest first).
  const end = (await gql(tp, token, PAGE, { last: 2 })).data.citations;
  t.same(end.edges.map((e: any) => e.node.id), [made[1], made[0]]);
  t.match(end.pageInfo, { hasNextPage: false, hasPreviousPage: true });
  t.equal(end.totalCount, 7, 'every citation, the two added meanwhile included');
  const before = (await gql(tp, token, PAGE, { last: 2, before: end.pageInfo.startCursor })).data.citations;
  t.same(before.edges.map((e: any) => e.node.id), [made[3], made[2]]);
  t.match(before.pageInfo, { hasNextPage: true, hasPreviousPage: true });
  const mixed = await gql(tp, token, PAGE, { first: 2, before: end.pageInfo.startCursor });
  t.match(mixed.errors, [{ extensions: { code: 'BAD_USER_INPUT' } }], 'one direction at a time');

  // DataLoader: a page of citations reads its chunks in one batch, not one query per citation.
  const ingestion = tp.platform.server.plugins.ingestion.api;
  const original = ingestion.getChunks;
  const batches: number[] = [];
  ingestion.getChunks = (trx, ids) => {
    batches.push(ids.length);
    return original.call(ingestion, trx, ids);
  };
  const withChunks = (await gql(tp, token, PAGE, { first: 7 })).data.citations;
  ingestion.getChunks = original;
  t.equal(withChunks.edges.length, 7);
  t.ok(withChunks.edges.every((e: any) => e.node.chunk.text === TEXT));
  t.same(batches, [1], 'one batched lookup (of the one distinct chunk) for seven citations');
  t.ok(withChunks.edges.every((e: any) => e.node.collection.name === 'docs' && e.node.revision.id === chunk.revision_id), 'each with its collection and revision');

  const verified = (await gql(tp, token, PAGE, { first: 50, filter: { verificationStatus: 'VERIFIED', documentName: 'reactor', executionContextId: 'wf-gql' } })).data.citations;
  t.equal(verified.edges.length, 4);
  t.equal(verified.totalCount, 4, 'totalCount with the same filter');
  const none = (await gql(tp, token, PAGE, { filter: { documentId: doc.document_id, createdAfter: '2099-01-01T00:00:00Z' } })).data.citations;
  t.same(none.edges, []);
  t.equal(none.totalCount, 0);
  const bounded = (await gql(tp, token, PAGE, { first: 50, filter: { createdAfter: '2000-01-01T00:00:00Z', createdBefore: '2099-01-01T00:00:00Z' } })).data.citations;
  t.equal(bounded.edges.length, 7, 'createdAfter and createdBefore bound createdAt');
  // The seven citations at one exact instant: …After includes it, …Before excludes it.
  const client = new pg.Client({ connectionString: tp.databaseUrl });
  await client.connect();
  await client.query(`UPDATE citations SET created_at = '2026-03-01T12:00:00Z' WHERE tenant_id = 'acme' AND document_id = $1`, [doc.document_id]);
  await client.end();
  const instant = '2026-03-01T12:00:00.000Z';
  const from = (await gql(tp, token, PAGE, { first: 50, filter: { documentId: doc.document_id, createdAfter: instant } })).data.citations;
  t.equal(from.totalCount, 7, 'createdAfter includes its own instant');
  const upTo = (await gql(tp, token, PAGE, { first: 50, filter: { documentId: doc.document_id, createdBefore: instant } })).data.citations;
  t.equal(upTo.totalCount, 0, 'createdBefore excludes its own instant');
  const inCollection = (await gql(tp, token, PAGE, { first: 50, filter: { collectionId: String(doc.collection_id) } })).data.citations;
  t.equal(inCollection.totalCount, 7, 'collectionId as an ID');
  const badCollection = await gql(tp, token, PAGE, { filter: { collectionId: 'policies' } });
  t.match(badCollection.errors, [{ message: 'collectionId is not a valid collection id', extensions: { code: 'BAD_USER_INPUT' } }]);

  const bad = await gql(tp, token, PAGE, { first: 500 });
  t.match(bad.errors, [{ message: /first must be between 0 and 100/, extensions: { code: 'BAD_USER_INPUT' } }]);
  const badId = await gql(tp, token, PAGE, { filter: { documentId: 'nope' } });
  t.match(badId.errors, [{ message: 'documentId is not a valid document id', extensions: { code: 'BAD_USER_INPUT' } }]);
  const badCursor = await gql(tp, token, PAGE, { after: 'not-a-cursor' });
  t.match(badCursor.errors, [{ extensions: { code: 'BAD_USER_INPUT' } }]);
  const badStatus = await gql(tp, token, PAGE, { filter: { verificationStatus: 'verified' } });
  t.ok(badStatus.errors?.length, 'enum values are UPPER_CASE');
});

t.test('citation(id): chunk text and current document through DataLoader; null when gone; stats', async (t) => {
  const { tp, admins } = await citationsFixture(t, { tenants: ['acme', 'globex'] });
  const [acme, globex] = admins;
  const doc = await seedDocument(tp, 'acme', 'Reactor Log.txt', [TEXT, 'Second chunk about valves.']);
  const context = { type: 'chat_session', id: 'gql-1' };
  await showChunksFunction(tp)('acme', context, [doc.chunks[0].chunk_id]);
  const a = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: doc.chunks[0].chunk_id, quoted_text: 'the inspection log is kept' }, context);
  const b = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: doc.chunks[1].chunk_id, quoted_text: 'valves' }, context);

  const ONE = `query($id: ID!) { citation(id: $id) {
    id chunkId revisionId documentId collectionId documentName tenantId executionContextType executionContextId quotedText
    verificationStatus matchType matchScore matchedSpanStart matchedSpanEnd verifiedAt createdAt
    chunk { id revisionId revisionNumber text page isLatestRevision revision { id isLatest } }
    document { id name collectionId contentType ingestionStatus collection { id name } }
    collection { id name documentCount }
    revision { id revisionNumber status isLatest }
  } }`;
  const one = (await gql(tp, acme.token, ONE, { id: a.id })).data.citation;
  t.match(one, {
    id: a.id, chunkId: doc.chunks[0].chunk_id, revisionId: doc.revision_id, documentId: doc.document_id, documentName: 'Reactor Log.txt',
    tenantId: 'acme', executionContextType: 'CHAT_SESSION'.toLowerCase(), quotedText: 'the inspection log is kept', verificationStatus: 'VERIFIED',
    matchType: 'EXACT', matchScore: 1, verifiedAt: String, createdAt: String,
    collectionId: String(doc.collection_id),
    chunk: { id: doc.chunks[0].chunk_id, revisionId: doc.revision_id, revisionNumber: 1, text: TEXT, page: 0, isLatestRevision: true },
    document: {
      id: doc.document_id, name: 'Reactor Log.txt', collectionId: String(doc.collection_id), contentType: 'text/plain', ingestionStatus: 'READY',
      collection: { id: String(doc.collection_id), name: 'docs' },
    },
    collection: { id: String(doc.collection_id), name: 'docs', documentCount: 2 },
    revision: { id: doc.revision_id, revisionNumber: 1, status: 'READY', isLatest: true },
  });
  t.same(one.chunk.revision, { id: doc.revision_id, isLatest: true });
  t.equal(one.chunk.text.slice(one.matchedSpanStart, one.matchedSpanEnd), 'the inspection log is kept');
  t.equal((await gql(tp, acme.token, ONE, { id: b.id })).data.citation.verificationStatus, 'OUT_OF_PROVENANCE');

  t.equal((await gql(tp, acme.token, ONE, { id: '00000000-0000-4000-8000-000000000000' })).data.citation, null);
  t.equal((await gql(tp, acme.token, ONE, { id: 'nope' })).data.citation, null);
  t.equal((await gql(tp, globex.token, ONE, { id: a.id }, 'globex')).data.citation, null, 'another tenant sees nothing');

  await deleteDocument(tp, 'acme', doc.document_id);
  const deleted = (await gql(tp, acme.token, ONE, { id: a.id })).data.citation;
  t.equal(deleted.document, null, 'the document is null once deleted');
  t.equal(deleted.documentName, 'Reactor Log.txt', 'the snapshot name stays');
  t.equal(deleted.chunk.text, TEXT, 'the cited revision\'s chunk stays');
  t.match(deleted, { collection: { id: String(doc.collection_id), name: 'docs' }, revision: { id: doc.revision_id } }, 'so do the collection and the revision');
  await purgeChunks(tp, 'acme', doc.revision_id);
  const purged = (await gql(tp, acme.token, ONE, { id: a.id })).data.citation;
  t.equal(purged.chunk, null);
  t.equal(purged.revision.id, doc.revision_id, 'the revision outlives its chunks');

  const stats = await gql(tp, acme.token, '{ citationStats { verified failed pending unverified outOfProvenance total } }');
  t.same(stats.data.citationStats, { verified: 1, failed: 0, pending: 0, unverified: 0, outOfProvenance: 1, total: 2 });
  const filtered = await gql(tp, acme.token, '{ citationStats(filter: {verificationStatus: OUT_OF_PROVENANCE}) { total outOfProvenance } }');
  t.same(filtered.data.citationStats, { total: 1, outOfProvenance: 1 });

  const anonymous = await tp.request({ method: 'POST', url: '/graphql', payload: { query: '{ citationStats { total } }' } });
  t.match(anonymous.body.errors, [{ extensions: { code: 'UNAUTHENTICATED' } }]);
  const foreign = await tp.request({ method: 'POST', url: '/graphql', token: globex.token, tenant: 'acme', payload: { query: '{ citationStats { total } }' } });
  t.equal(foreign.status, 403);
});

t.test('an API key reads its citation but not the collection or revision behind it (ingestion\'s data: members only)', async (t) => {
  const { tp, admins } = await citationsFixture(t);
  const doc = await seedDocument(tp, 'acme', 'Reactor Log.txt', [TEXT]);
  const key = await apiKey(tp, admins[0].token, 'acme');
  const context = { type: 'chat_session', id: 'gql-key' };
  const cited = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: doc.chunks[0].chunk_id, quoted_text: 'inspected weekly' }, context, key.clientId);
  const query = `{ citation(id: "${cited.id}") {
    id collectionId revisionId collection { id name } revision { id }
    chunk { revision { id } } document { collection { id } }
  } }`;

  const asKey = (await tp.request({ method: 'POST', url: '/graphql', apiKey: key.key, tenant: 'acme', payload: { query } })).body;
  t.match(asKey.data.citation, {
    id: cited.id, collectionId: String(doc.collection_id), revisionId: doc.revision_id, collection: null, revision: null, chunk: null, document: null,
  }, 'the ids answer, the objects do not');
  t.same(asKey.errors.map((e: { path: string[]; extensions: { code: string } }) => [e.path.join('.'), e.extensions.code]).sort(), [
    ['citation.chunk', 'FORBIDDEN'], ['citation.collection', 'FORBIDDEN'], ['citation.document', 'FORBIDDEN'], ['citation.revision', 'FORBIDDEN'],
  ]);
  t.notMatch(JSON.stringify(asKey), '"docs"', 'no collection name in the answer');

  const asMember = await gql(tp, admins[0].token, query);
  t.notOk(asMember.errors);
  t.same(asMember.data.citation, {
    id: cited.id, collectionId: String(doc.collection_id), revisionId: doc.revision_id,
    collection: { id: String(doc.collection_id), name: 'docs' }, revision: { id: doc.revision_id },
    chunk: { revision: { id: doc.revision_id } }, document: { collection: { id: String(doc.collection_id) } },
  }, 'a member reads them, through the chunk and the document too');
});

/** Reads SSE `data:` payloads from a streamed response as they come. */
async function* sseData(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('\n');
      if (data) yield JSON.parse(data);
    }
  }
}

t.test('citationVerified over SSE: pushed when a verification completes, only the tenant\'s', async (t) => {
  const { tp, admins } = await citationsFixture(t, { tenants: ['acme', 'globex'], listen: true });
  const [acme, globex] = admins;
  const mine = await seedDocument(tp, 'acme', 'Mine.txt', [TEXT]);
  const theirs = await seedDocument(tp, 'globex', 'Theirs.txt', [TEXT]);
  const citation = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: mine.chunks[0].chunk_id, quoted_text: 'inspected weekly' });
  const foreignCitation = await callFunction(tp, 'globex', 'resolve_citation', { chunk_id: theirs.chunks[0].chunk_id, quoted_text: 'inspected weekly' });

  const denied = await fetch(tp.url('/graphql'), {
    method: 'POST', headers: { authorization: `Bearer ${globex.token}`, 'x-tenant-id': 'acme', 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query: 'subscription { citationVerified { id } }' }),
  });
  const deniedText = await denied.text();
  t.match(deniedText, /Not a member of tenant acme/, 'another tenant cannot subscribe');

  const controller = new AbortController();
  t.teardown(() => controller.abort());
  const response = await fetch(tp.url('/graphql'), {
    method: 'POST', signal: controller.signal,
    headers: { authorization: `Bearer ${acme.token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query: 'subscription { citationVerified { id verificationStatus matchType matchedSpanStart chunk { text } collection { name } } }' }),
  });
  t.equal(response.status, 200);
  t.match(response.headers.get('content-type'), /text\/event-stream/);
  const events = sseData(response);

  // The subscription starts asynchronously: verify until the first event arrives.
  const first = events.next();
  let arrived: IteratorResult<any> | undefined;
  first.then((value) => { arrived = value; });
  const deadline = Date.now() + 20_000;
  while (!arrived && Date.now() < deadline) {
    await callFunction(tp, 'acme', 'verify_citation', { citation_id: citation.id });
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  t.ok(arrived, 'an event arrived');
  t.match(arrived?.value, { data: { citationVerified: { id: citation.id, verificationStatus: 'VERIFIED', matchType: 'EXACT', chunk: { text: TEXT }, collection: { name: 'docs' } } } });

  // The subscription lives on while the collection is renamed: later events read it as it is then.
  const renamed = await tp.request({ method: 'PATCH', url: `/api/admin/collections/${mine.collection_id}`, token: acme.token, tenant: 'acme', payload: { name: 'Renamed' } });
  t.equal(renamed.status, 200);
  // Drain what the retries produced, then: another tenant's verification, then ours.
  await callFunction(tp, 'globex', 'verify_citation', { citation_id: foreignCitation.id });
  const next = await callFunction(tp, 'acme', 'resolve_citation', { chunk_id: mine.chunks[0].chunk_id, quoted_text: 'kept in the control room' });
  let found: any;
  for (let i = 0; i < 200 && !found; i += 1) {
    const event = await events.next();
    t.not(event.value?.data?.citationVerified?.id, foreignCitation.id, 'never another tenant\'s');
    if (event.value?.data?.citationVerified?.id === next.id) found = event.value.data.citationVerified;
  }
  t.match(found, { id: next.id, verificationStatus: 'VERIFIED', matchType: 'EXACT', matchedSpanStart: TEXT.indexOf('kept in the control room'), collection: { name: 'Renamed' } });
  controller.abort();
});

t.test('citationVerified across processes: a verification in one server reaches a subscriber of another', async (t) => {
  const { tp: first, admins } = await citationsFixture(t, { listen: true });
  const second = await startTestPlatform(t, { databaseUrl: first.databaseUrl, listen: true, env: {
    PLATFORM_MANIFEST: MANIFEST, ADMIN_TOKEN: first.adminToken, PLATFORM_MASTER_KEY: first.env.PLATFORM_MASTER_KEY, SERVICE_JWT_SECRET: first.env.SERVICE_JWT_SECRET,
  } });
  const doc = await seedDocument(first, 'acme', 'Shared.txt', [TEXT]);
  const controller = new AbortController();
  t.teardown(() => controller.abort());
  const response = await fetch(second.url('/graphql'), {
    method: 'POST', signal: controller.signal,
    headers: { authorization: `Bearer ${admins[0].token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query: 'subscription { citationVerified { id verificationStatus } }' }),
  });
  t.equal(response.status, 200);
  const events = sseData(response);
  let arrived: any;
  void events.next().then((event) => { arrived = event.value; });
  const made: string[] = [];
  const deadline = Date.now() + 20_000;
  while (!arrived && Date.now() < deadline) {
    made.push((await callFunction(first, 'acme', 'resolve_citation', { chunk_id: doc.chunks[0].chunk_id, quoted_text: 'inspected weekly' })).id);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  t.ok(arrived, 'an event arrived at the other server');
  t.ok(made.includes(arrived?.data?.citationVerified?.id), 'one of the citations verified by the first server');
  t.equal(arrived?.data?.citationVerified?.verificationStatus, 'VERIFIED');
});

