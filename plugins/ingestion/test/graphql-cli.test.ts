// The GraphQL facade (collections, documents by collection and status, one
// document with revisions, chunks and status, search) and the CLI commands
// (`ingest` with its progress fed by the aggregate status, `search`) against
// a server listening on loopback.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { cli, filesOf } from '../cli.ts';
import { corruptPdf } from './fixtures.ts';
import { createCollection, ingest, ingestionFixture } from './helpers.ts';

t.test('GraphQL: collections, documents, document with revisions/chunks/status, search', async (t) => {
  const { tp, token } = await ingestionFixture(t);
  const gql = async (query: string, variables: Record<string, unknown> = {}) =>
    (await tp.request({ method: 'POST', url: '/graphql', token, payload: { query, variables } })).body;
  const collection = await createCollection(tp, token, 'Graph');
  const good = await ingest(tp, token, collection, 'graph.txt', 'Graph databases store nodes and edges.');
  const bad = await ingest(tp, token, collection, 'bad.pdf', corruptPdf());
  t.equal(bad.status.ingestion_status, 'error');

  const listed = await gql(`{ collections(first: 10) { edges { node { id name documentCount status(windowMinutes: 30) { total counts { ready error } completedInWindow etaSeconds topErrors { count } } } } pageInfo { hasNextPage } } }`);
  t.same(listed.data.collections.edges[0].node, {
    id: collection, name: 'Graph', documentCount: 2,
    status: { total: 2, counts: { ready: 1, error: 1 }, completedInWindow: 2, etaSeconds: null, topErrors: [{ count: 1 }] },
  });

  const ready = await gql(`query($c: Int) { documents(collection: $c, status: READY, first: 1) { edges { node { id ingestionStatus } cursor } pageInfo { hasNextPage } } }`, { c: collection });
  t.same(ready.data.documents.edges.map((e: any) => e.node), [{ id: good.id, ingestionStatus: 'READY' }]);
  const all = await gql(`query($c: Int) { documents(collection: $c, first: 1) { edges { cursor } pageInfo { hasNextPage endCursor } } }`, { c: collection });
  t.equal(all.data.documents.pageInfo.hasNextPage, true);
  const next = await gql(`query($c: Int, $a: String) { documents(collection: $c, first: 1, after: $a) { edges { node { id } } pageInfo { hasNextPage } } }`, { c: collection, a: all.data.documents.pageInfo.endCursor });
  t.equal(next.data.documents.edges.length, 1);
  t.equal(next.data.documents.pageInfo.hasNextPage, false);

  const one = await gql(`query($id: String!) { document(id: $id) { name contentType status { ingestionStatus stage progressPct chunkCount revisionId error } revisions { revisionNumber isLatest } chunks(first: 5) { edges { node { id revisionId text page } } } } }`, { id: good.id });
  const document = one.data.document;
  t.equal(document.contentType, 'text/plain');
  t.same(document.status, { ingestionStatus: 'READY', stage: 'done', progressPct: 100, chunkCount: 1, revisionId: good.status.revision_id, error: null });
  t.same(document.revisions, [{ revisionNumber: 1, isLatest: true }]);
  t.equal(document.chunks.edges[0].node.text, 'Graph databases store nodes and edges.');
  t.equal((await gql(`{ document(id: "00000000-0000-4000-8000-000000000000") { id } }`)).data.document, null);

  const found = await gql(`query($q: String!, $c: [Int!]) { search(query: $q, collections: $c, topK: 3) { chunkId revisionId docName score text } }`, { q: 'nodes edges', c: [collection] });
  t.equal(found.data.search[0].docName, 'graph.txt');
  t.equal(found.data.search[0].revisionId, good.status.revision_id);
  const invalid = await gql(`{ search(query: "x", topK: 500) { chunkId } }`);
  t.equal(invalid.errors[0].extensions.code, 'BAD_USER_INPUT');
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
  await t.rejects(cli.run(ingestCommand, undefined, {}, { positionals: [folder], options: { url: tp.url(''), token, tenant: 'acme', collection: 'x' } }), /--collection/);
});
