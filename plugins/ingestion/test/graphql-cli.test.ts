// The GraphQL facade (collections, documents by collection and status, one
// document with revisions, chunks and ingestion, search with its references;
// pages both ways with totalCount; reingestDocument) and the CLI commands
// (`ingest` with its progress fed by the aggregate status, `search`) against
// a server listening on loopback.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { cli } from '../cli.ts';
import { filesOf } from '../cli/http.ts';
import { corruptPdf } from './fixtures.ts';
import { createCollection, ingest, ingestionFixture, waitFor } from './helpers.ts';

t.test('GraphQL: collections, documents, document with revisions/chunks/ingestion, search and its references', async (t) => {
  const { tp, token } = await ingestionFixture(t);
  const gql = async (query: string, variables: Record<string, unknown> = {}) =>
    (await tp.request({ method: 'POST', url: '/graphql', token, payload: { query, variables } })).body;
  const collection = await createCollection(tp, token, 'Graph');
  const good = await ingest(tp, token, collection, 'graph.txt', 'Graph databases store nodes and edges.');
  const bad = await ingest(tp, token, collection, 'bad.pdf', corruptPdf());
  t.equal(bad.status.ingestion_status, 'error');
  const c = String(collection);

  const listed = await gql(`{ collections(first: 10) { totalCount edges { node { id parentId parent { id } name documentCount
    ingestion(windowMinutes: 30) { total counts { ready error } completedInWindow etaSeconds topErrors { count } } } } pageInfo { hasNextPage } } }`);
  t.same(listed.data.collections.edges[0].node, {
    id: c, parentId: null, parent: null, name: 'Graph', documentCount: 2,
    ingestion: { total: 2, counts: { ready: 1, error: 1 }, completedInWindow: 2, etaSeconds: null, topErrors: [{ count: 1 }] },
  });
  t.equal(listed.data.collections.totalCount, 1);

  const ready = await gql(`query($c: ID) { documents(filter: { collectionId: $c, status: READY }, first: 1) { totalCount edges { node { id ingestionStatus collectionId collection { name } } cursor } pageInfo { hasNextPage } } }`, { c });
  t.same(ready.data.documents.edges.map((e: any) => e.node), [{ id: good.id, ingestionStatus: 'READY', collectionId: c, collection: { name: 'Graph' } }]);
  t.equal(ready.data.documents.totalCount, 1, 'totalCount counts with the filter');
  const all = await gql(`query($c: ID) { documents(filter: { collectionId: $c }, first: 1) { totalCount edges { cursor } pageInfo { hasNextPage endCursor } } }`, { c });
  t.equal(all.data.documents.pageInfo.hasNextPage, true);
  t.equal(all.data.documents.totalCount, 2);
  const next = await gql(`query($c: ID, $a: String) { documents(filter: { collectionId: $c }, first: 1, after: $a) { edges { node { id } } pageInfo { hasNextPage } } }`, { c, a: all.data.documents.pageInfo.endCursor });
  t.equal(next.data.documents.edges.length, 1);
  t.equal(next.data.documents.pageInfo.hasNextPage, false);

  const one = await gql(`query($id: ID!) { document(id: $id) { name contentType
    ingestion { ingestionStatus stage progressPct chunkCount revisionId revision { revisionNumber status } error }
    revisions { revisionNumber isLatest status }
    chunks(first: 5) { totalCount edges { node { id revisionId revision { isLatest } text page } } } } }`, { id: good.id });
  const document = one.data.document;
  t.equal(document.contentType, 'text/plain');
  t.same(document.ingestion, {
    ingestionStatus: 'READY', stage: 'done', progressPct: 100, chunkCount: 1, revisionId: good.status.revision_id, revision: { revisionNumber: 1, status: 'READY' }, error: null,
  });
  t.same(document.revisions, [{ revisionNumber: 1, isLatest: true, status: 'READY' }]);
  t.equal(document.chunks.edges[0].node.text, 'Graph databases store nodes and edges.');
  t.same(document.chunks.edges[0].node.revision, { isLatest: true });
  t.equal(document.chunks.totalCount, 1);
  t.equal((await gql(`{ document(id: "00000000-0000-4000-8000-000000000000") { id } }`)).data.document, null);
  t.equal((await gql(`{ document(id: "42") { id } }`)).data.document, null, 'a malformed id finds nothing');
  const noRevision = await gql(`query($id: ID!) { document(id: $id) { chunks(filter: { revisionNumber: 9 }) { totalCount } } }`, { id: good.id });
  t.equal(noRevision.errors[0].extensions.code, 'REVISION_NOT_FOUND');

  const found = await gql(`query($q: String!, $c: [ID!]) { search(query: $q, collectionIds: $c, topK: 3) {
    chunkId chunk { id text } revisionId revision { revisionNumber } documentId document { name } documentName collectionId collection { name } score text } }`,
  { q: 'nodes edges', c: [c] });
  const hit = found.data.search[0];
  t.match(hit, {
    documentName: 'graph.txt', revisionId: good.status.revision_id, revision: { revisionNumber: 1 }, documentId: good.id,
    document: { name: 'graph.txt' }, collectionId: c, collection: { name: 'Graph' }, chunk: { text: 'Graph databases store nodes and edges.' },
  });
  t.equal(hit.chunk.id, hit.chunkId);
  const invalid = await gql(`{ search(query: "x", topK: 500) { chunkId } }`);
  t.equal(invalid.errors[0].extensions.code, 'BAD_USER_INPUT');
  const badCollection = await gql(`{ search(query: "x", collectionIds: ["x"]) { chunkId } }`);
  t.match(badCollection.errors[0], { message: 'collectionIds is not a valid collection id', extensions: { code: 'BAD_USER_INPUT' } });
});

t.test('GraphQL: backward pages, totalCount and the list filters', async (t) => {
  const { tp, token } = await ingestionFixture(t);
  const gql = async (query: string, variables: Record<string, unknown> = {}) =>
    (await tp.request({ method: 'POST', url: '/graphql', token, payload: { query, variables } })).body;
  const parent = await createCollection(tp, token, 'Parent');
  const child = await createCollection(tp, token, 'Child', parent);
  const other = await createCollection(tp, token, 'Other');
  const first = await ingest(tp, token, parent, 'first.txt', 'The first note.');
  const second = await ingest(tp, token, child, 'second.txt', 'The second note.');
  const third = await ingest(tp, token, parent, 'third.txt', 'The third note.');
  const ids = (connection: any) => connection.edges.map((e: any) => e.node.id);

  // Collections in id order; last/before page from the end.
  const lastTwo = await gql('{ collections(last: 2) { totalCount edges { node { id } } pageInfo { hasPreviousPage hasNextPage startCursor } } }');
  t.same(ids(lastTwo.data.collections), [String(child), String(other)]);
  t.same(lastTwo.data.collections.pageInfo, { hasPreviousPage: true, hasNextPage: false, startCursor: lastTwo.data.collections.pageInfo.startCursor });
  t.equal(lastTwo.data.collections.totalCount, 3);
  const before = await gql('query($b: String) { collections(last: 2, before: $b) { edges { node { id } } pageInfo { hasPreviousPage hasNextPage } } }', { b: lastTwo.data.collections.pageInfo.startCursor });
  t.same(ids(before.data.collections), [String(parent)]);
  t.same(before.data.collections.pageInfo, { hasPreviousPage: false, hasNextPage: true });
  const children = await gql('query($p: ID) { collections(filter: { parentId: $p }) { totalCount edges { node { id parent { name } } } } }', { p: String(parent) });
  t.same(children.data.collections.edges, [{ node: { id: String(child), parent: { name: 'Parent' } } }]);
  t.equal(children.data.collections.totalCount, 1);
  const topLevel = await gql('{ collections(filter: { topLevel: true }) { totalCount } }');
  t.equal(topLevel.data.collections.totalCount, 2);

  // Documents newest first: backward from the end, then before the page's start.
  const newestFirst = await gql('{ documents { totalCount edges { node { id } } } }');
  t.same(ids(newestFirst.data.documents), [third.id, second.id, first.id]);
  t.equal(newestFirst.data.documents.totalCount, 3);
  const oldest = await gql('{ documents(last: 1) { totalCount edges { node { id } } pageInfo { hasPreviousPage hasNextPage startCursor } } }');
  t.same(ids(oldest.data.documents), [first.id]);
  t.match(oldest.data.documents.pageInfo, { hasPreviousPage: true, hasNextPage: false });
  t.equal(oldest.data.documents.totalCount, 3);
  const newer = await gql('query($b: String) { documents(last: 5, before: $b) { edges { node { id } } pageInfo { hasPreviousPage hasNextPage } } }', { b: oldest.data.documents.pageInfo.startCursor });
  t.same(ids(newer.data.documents), [third.id, second.id], 'the rows before the cursor, in list order');
  t.same(newer.data.documents.pageInfo, { hasPreviousPage: false, hasNextPage: true });

  // A collection's documents: its sub-collections' unless includeDescendants is false.
  const tree = await gql(`query($c: ID) { documents(filter: { collectionId: $c }, last: 1) { totalCount edges { node { id } } } }`, { c: String(parent) });
  t.equal(tree.data.documents.totalCount, 3);
  const own = await gql(`{ collections(filter: { topLevel: true }, first: 1) { edges { node { name documents(filter: { includeDescendants: false, status: READY }) { totalCount edges { node { id } } } } } } }`);
  t.same(own.data.collections.edges[0].node.documents.edges.map((e: any) => e.node.id), [third.id, first.id]);
  t.equal(own.data.collections.edges[0].node.documents.totalCount, 2);

  // Chunks page backward too.
  const chunks = await gql('query($id: ID!) { document(id: $id) { chunks(last: 1) { totalCount edges { node { ordinal } } pageInfo { hasPreviousPage } } } }', { id: first.id });
  t.same(chunks.data.document.chunks, { totalCount: 1, edges: [{ node: { ordinal: 0 } }], pageInfo: { hasPreviousPage: false } });

  // Malformed input.
  const code = (body: any) => body.errors?.[0]?.extensions?.code;
  t.equal(code(await gql('{ documents(first: 1, last: 1) { totalCount } }')), 'BAD_USER_INPUT', 'both directions at once');
  t.equal(code(await gql('{ documents(after: "bm90LWEta2V5") { totalCount } }')), 'BAD_USER_INPUT', 'a cursor of another list');
  t.equal(code(await gql('{ documents(filter: { collectionId: "one" }) { totalCount } }')), 'BAD_USER_INPUT');
  t.equal(code(await gql('{ documents(filter: { collectionId: "999999" }) { totalCount } }')), 'COLLECTION_NOT_FOUND');
  t.equal(code(await gql('{ collections(filter: { parentId: "1", topLevel: true }) { totalCount } }')), 'BAD_USER_INPUT');
  t.equal(code(await gql(`{ collections { edges { node { documents(filter: { collectionId: "${other}" }) { totalCount } } } } }`)), 'BAD_USER_INPUT',
    'a collection\'s documents take no collectionId');
});

t.test('GraphQL: reingestDocument as the REST route (admin; its validation and errors)', async (t) => {
  const { tp, token } = await ingestionFixture(t);
  const gql = async (query: string, variables: Record<string, unknown> = {}, as = token) =>
    (await tp.request({ method: 'POST', url: '/graphql', token: as, payload: { query, variables } })).body;
  const collection = await createCollection(tp, token, 'Again');
  const doc = await ingest(tp, token, collection, 'again.txt', 'Reingested text.');
  const REINGEST = 'mutation($id: ID!) { reingestDocument(id: $id) { id ingestionStatus revisions { revisionNumber } } }';

  const started = await gql(REINGEST, { id: doc.id });
  t.notOk(started.errors, JSON.stringify(started.errors));
  t.equal(started.data.reingestDocument.id, doc.id);
  t.equal(started.data.reingestDocument.ingestionStatus, 'INGESTING', 'a new run, as REST answers 202');
  await waitFor(tp, token, doc.id, ['ready']);
  const after = await gql('query($id: ID!) { document(id: $id) { revisions { revisionNumber isLatest } } }', { id: doc.id });
  t.same(after.data.document.revisions, [{ revisionNumber: 2, isLatest: true }, { revisionNumber: 1, isLatest: false }]);

  const code = (body: any) => body.errors?.[0]?.extensions?.code;
  t.equal(code(await gql(REINGEST, { id: '00000000-0000-4000-8000-000000000000' })), 'DOCUMENT_NOT_FOUND');
  const malformed = await gql(REINGEST, { id: 'nope' });
  t.match(malformed.errors[0], { message: 'id is not a valid document id', extensions: { code: 'BAD_USER_INPUT' } });
  t.equal((await tp.request({ method: 'DELETE', url: `/api/admin/documents/${doc.id}`, token })).status, 204);
  t.equal(code(await gql(REINGEST, { id: doc.id })), 'DOCUMENT_DELETED', 'a deleted document is refused, as REST refuses it');
});

t.test('CLI: ingest a folder with progress until done, then search', async (t) => {
  const { tp, token } = await ingestionFixture(t, { listen: true, env: { INGESTION_MAX_CONCURRENT: '2' } });
  const collection = await createCollection(tp, token, 'Cli');
  const folder = await mkdtemp(path.join(tmpdir(), 'ingestion-cli-'));
  for (let i = 0; i < 4; i++) await writeFile(path.join(folder, `note-${i}.txt`), `Note ${i} about the warehouse inventory of item ${i}.`);
  t.equal((await filesOf(path.join(folder, '*.txt'))).length, 4, 'a glob');
  const ingestCommand = cli.commands.find((c) => c.name === 'ingest')!;
  const lines: string[] = [];
  const result: any = await cli.run(ingestCommand, undefined, {}, {
    positionals: [folder], options: { url: tp.url(''), token, tenant: 'acme', collection: String(collection) }, progress: (line) => lines.push(line),
  });
  t.equal(result.uploaded.length, 4);
  t.ok(result.uploaded.every((u: { document_id?: string }) => u.document_id), 'uploads past the quota waited out their 429');
  t.same(result.status.counts, { pending: 0, ingesting: 0, ready: 4, error: 0, other: 0 });
  t.ok(lines.some((line) => /\[#+\] 4\/4/.test(line)), 'the progress bar reached 4/4');

  const searchCommand = cli.commands.find((c) => c.name === 'search')!;
  const found: any = await cli.run(searchCommand, undefined, {}, { positionals: ['warehouse item 2'], options: { url: tp.url(''), token, tenant: 'acme' } });
  t.match(found.results[0].text, /item 2/);
  await t.rejects(cli.run(ingestCommand, undefined, {}, { positionals: [folder], options: { url: tp.url(''), token, tenant: 'acme', collection: 'x' } }), /no collection named "x" in tenant acme: create it with platform collections create "x" --tenant acme/);
});
