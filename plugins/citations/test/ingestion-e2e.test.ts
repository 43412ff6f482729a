// End to end with the real ingestion plugin: a text document uploaded through
// the ingestion REST API becomes chunks; an agent's search_documents call in a
// chat session records what the session was shown; the reply's <citations>
// block is resolved (verified, and out_of_provenance for a chunk the session
// never saw); the citation outlives a reingest and the document's deletion.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { startTestPlatform, tenantWithAdmin, until, type TestPlatform } from 'agent-platform/sdk/testing';
import { callFunction } from './helpers.ts';

const MANIFEST = 'test/fixtures/manifests/citations.yaml';
const POLICY = '# Travel policy\n\nEmployees book economy class for flights under six hours.\n'
  + 'Hotel costs are reimbursed up to 180 euros per night with receipts.\n';
const MENU = 'Canteen menu\n\nMonday: lentil soup and fresh bread. Tuesday: grilled vegetables with rice.\n';

async function upload(tp: TestPlatform, token: string, collectionId: number, filename: string, text: string) {
  // A multipart body byte for byte; the file part as octet-stream (the server detects the type from the bytes and name).
  const boundary = `----citations${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.from(text), Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await tp.request({
    method: 'POST', url: `/api/admin/collections/${collectionId}/documents`, token, tenant: 'acme', payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  if (res.status !== 202) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body)}`);
  const documentId: string = res.body.document_id ?? res.body.id;
  await until(async () => {
    const status = await tp.request({ url: `/api/admin/documents/${documentId}/ingestion-status?tenant_id=acme`, token });
    if (status.body.ingestion_status === 'error') throw new Error(`ingestion failed: ${JSON.stringify(status.body)}`);
    return status.body.ingestion_status === 'ready';
  }, `${filename} to be ready`, 60_000);
  const chunks = await tp.request({ url: `/api/admin/documents/${documentId}/chunks`, token, tenant: 'acme' });
  if (chunks.status !== 200) throw new Error(`chunks: ${chunks.status} ${JSON.stringify(chunks.body)}`);
  return { documentId, chunks: chunks.body.items as { chunk_id: string; revision_id: string; text: string }[] };
}

t.test('upload → search in a chat session → cite → reingest → delete', async (t) => {
  const tp = await startTestPlatform(t, { env: { PLATFORM_MANIFEST: MANIFEST } });
  await tp.platform.start();
  const { token } = await tenantWithAdmin(tp, 'acme');
  const collection = await tp.request({ method: 'POST', url: '/api/admin/collections', token, tenant: 'acme', payload: { name: 'handbook' } });
  t.equal(collection.status, 201);
  const policy = await upload(tp, token, collection.body.collection_id, 'travel-policy.md', POLICY);
  const menu = await upload(tp, token, collection.body.collection_id, 'menu.txt', MENU);
  t.ok(policy.chunks.length >= 1 && menu.chunks.length >= 1);

  const session = { type: 'chat_session', id: 'e2e-session' };
  const found = await callFunction(tp, 'acme', 'search_documents', { query: 'hotel reimbursed per night' }, session);
  const hit = (found.results as { chunk_id: string; revision_id: string; text: string }[]).find((r) => r.text.includes('180 euros'));
  t.ok(hit, 'search found the policy chunk');

  const api = tp.platform.server.plugins.citations.api;
  const menuChunk = menu.chunks[0];
  const reply = `Hotels up to 180 euros [1].\n${api.writeBlock([
    { ref: '1', chunk_id: hit!.chunk_id, revision_id: hit!.revision_id, doc_name: 'travel-policy.md', quote: 'Hotel costs are reimbursed up to 180 euros\nper night' },
    { ref: '2', chunk_id: menuChunk.chunk_id, revision_id: menuChunk.revision_id, doc_name: 'menu.txt', quote: 'lentil soup' },
  ])}`;
  const resolved = await api.resolveReply('acme', reply, session);
  t.match(resolved.entries, [
    { ref: '1', verification_status: 'verified', match_type: 'normalized' },
    { ref: '2', verification_status: 'out_of_provenance', match_type: 'exact' },
  ]);
  const citationId = resolved.entries[0].citation_id;
  const citation = await tp.request({ url: `/api/citations/${citationId}?tenant_id=acme`, token });
  t.equal(hit!.text.slice(citation.body.matched_span_start, citation.body.matched_span_end), 'Hotel costs are reimbursed up to 180 euros per night');
  t.match(citation.body, { document_id: policy.documentId, document_name: String, collection_id: collection.body.collection_id });

  const reingested = await tp.request({ method: 'POST', url: `/api/admin/documents/${policy.documentId}/reingest?tenant_id=acme`, token });
  t.ok(reingested.status < 300, `reingest ${reingested.status}`);
  await until(async () => {
    const status = await tp.request({ url: `/api/admin/documents/${policy.documentId}/ingestion-status?tenant_id=acme`, token });
    return status.body.ingestion_status === 'ready' && status.body.revision_id !== hit!.revision_id;
  }, 'the reingest', 60_000);
  const again = await callFunction(tp, 'acme', 'verify_citation', { citation_id: citationId }, session);
  t.match(again, { verification_status: 'verified', match_type: 'normalized', revision_id: hit!.revision_id });

  const deleted = await tp.request({ method: 'DELETE', url: `/api/admin/documents/${policy.documentId}?tenant_id=acme`, token });
  t.ok(deleted.status < 300, `delete ${deleted.status}`);
  const listed = await tp.request({ url: `/api/citations?tenant_id=acme&document_name=travel`, token });
  t.same(listed.body.items.map((c: { id: string }) => c.id), [citationId], 'listed after the document was deleted');
  const graph = await tp.request({
    method: 'POST', url: '/graphql', token, tenant: 'acme',
    payload: { query: `{ citation(id: "${citationId}") { documentName document { name } chunk { text } } }` },
  });
  t.match(graph.body.data.citation, { document: null, chunk: { text: hit!.text } });
});
