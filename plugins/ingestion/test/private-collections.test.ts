// Private collections (the embed plugin's uploads): a collection that belongs to
// one execution context (a chat session) through the ingestion API. Its
// documents are ingested like any other, but it is listed to no surface (REST,
// GraphQL), searched and read only from its own context, and deleted with it.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import type { FunctionCallContext } from 'agent-platform/sdk';
import { createCollection, ingestionFixture, ingest, upload as uploadTo, waitFor } from './helpers.ts';

t.test('a private collection is searched only from its context, listed nowhere, deleted with its scope', async (t) => {
  const { tp, token, tenant } = await ingestionFixture(t);
  const api = tp.platform.server.plugins.ingestion.api;
  const { withTenant, functions, logger } = tp.platform.core;
  const shared = await createCollection(tp, token, 'Manuals');
  await ingest(tp, token, shared, 'turbine.txt', 'The turbine manual covers yearly maintenance of the blades.');

  const sessionA = randomUUID();
  const sessionB = randomUUID();
  const scopeA = `chat_session:${sessionA}`;
  const prepared = await api.privateUploads.prepare({ bytes: Buffer.from('The zebra protocol opens the north gate at dawn.'), filename: 'notes.txt' });
  t.equal(prepared.contentType, 'text/plain');
  const stored = await withTenant(tenant, (trx) => api.privateUploads.store(trx, tenant, scopeA, prepared));
  t.match(stored, { filename: 'notes.txt', ingestion_status: 'pending' });
  t.match(stored.document_id, /^[0-9a-f-]{36}$/);
  await waitFor(tp, token, stored.document_id, ['ready']);
  const again = await withTenant(tenant, (trx) => api.privateUploads.store(trx, tenant, scopeA, prepared));
  t.equal(again.collection_id, stored.collection_id, 'a second upload of the context goes to the same collection');
  await waitFor(tp, token, again.document_id, ['ready']);

  // Listed nowhere.
  const collections = await tp.request({ url: '/api/admin/collections', token });
  t.same(collections.body.items.map((c: { collection_id: number }) => c.collection_id), [shared], 'REST lists only the tenant\'s own collection');
  t.equal((await tp.request({ url: `/api/admin/collections/${stored.collection_id}`, token })).status, 404);
  const documents = await tp.request({ url: '/api/admin/documents', token });
  t.same(documents.body.items.map((d: { name: string }) => d.name), ['turbine.txt'], 'REST lists none of its documents');
  const gql = await tp.request({ method: 'POST', url: '/graphql', token, payload: { query: '{ collections { edges { node { id } } } documents { edges { node { name } } } }' } });
  t.same(gql.body.data.collections.edges.map((e: { node: { id: string } }) => e.node.id), [String(shared)]);
  t.same(gql.body.data.documents.edges.map((e: { node: { name: string } }) => e.node.name), ['turbine.txt']);
  const upload = await uploadTo(tp, token, stored.collection_id, 'more.txt', 'More notes.');
  t.equal(upload.status, 404, 'nothing reaches it by id through the admin routes');

  // Searched only from its context.
  const rest = await tp.request({ url: '/api/admin/search?query=zebra%20protocol', token });
  t.same(rest.body.results, [], 'the tenant\'s search does not find it');
  const search = (scope?: string, collection_ids?: number[]) =>
    withTenant(tenant, (trx) => api.search(trx, { query: 'zebra protocol', scope, collection_ids }));
  t.same((await search(scopeA)).map((hit) => hit.doc_name), ['notes.txt', 'notes.txt'], 'its own context finds it');
  t.same(await search(`chat_session:${sessionB}`), [], 'another session does not');
  t.same(await search(`chat_session:${sessionB}`, [stored.collection_id]), [], 'not even naming the collection');
  t.same(await search(undefined, [stored.collection_id]), []);
  t.same((await search(scopeA, [shared])).length, 0, 'collection_ids still narrow the context\'s search');
  t.ok((await withTenant(tenant, (trx) => api.search(trx, { query: 'turbine blades', scope: scopeA }))).length > 0, 'the context still searches the tenant\'s documents');

  const context = (id: string): FunctionCallContext => ({
    tenantId: tenant, principal: { kind: 'super_admin', sub: 'super-admin' }, withTenant, logger, executionContext: { type: 'chat_session', id },
  });
  const found = await functions.call('search_documents', { query: 'zebra protocol' }, context(sessionA)) as { results: unknown[] };
  t.equal(found.results.length, 2, 'search_documents from the session finds its uploads');
  const hidden = await functions.call('search_documents', { query: 'zebra protocol' }, context(sessionB)) as { results: unknown[] };
  t.equal(hidden.results.length, 0, 'search_documents from another session does not');
  const read = await functions.call('read_document', { document_id: stored.document_id }, context(sessionA)) as { chunks?: unknown[] };
  t.ok(read, 'read_document from the session reads it');
  await t.rejects(functions.call('read_document', { document_id: stored.document_id }, context(sessionB)), /Document not found/, 'another session cannot read it');

  // Deleted with its scope.
  t.equal(await withTenant(tenant, (trx) => api.privateUploads.deleteScope(trx, tenant, scopeA)), 2);
  t.same(await search(scopeA), []);
  t.equal((await tp.request({ url: `/api/admin/documents/${stored.document_id}`, token })).status, 404, 'its documents are gone');
  const left = await withTenant(tenant, (trx) => trx.selectFrom('ingestion_collections').select('id').where('id', '=', stored.collection_id).execute());
  t.same(left, [], 'the collection is gone');
  t.equal(await withTenant(tenant, (trx) => api.privateUploads.deleteScope(trx, tenant, scopeA)), 0, 'deleting again is a no-op');
  await t.rejects(withTenant(tenant, (trx) => api.privateUploads.deleteScope(trx, tenant, 'no scope at all')), /Malformed scope/);
});
