// The pipeline end to end for text formats: upload → pending → stages → ready
// with chunks, revisions, status, events; keyword search (no embedder);
// the platform functions and the api.ts contract; 413/415/404 and validation.
import t from 'tap';
import { CloudEvent } from 'cloudevents';
import { callFunction, chunksOf, createCollection, eventsOf, ingest, ingestionFixture, multipart, search, statusOf, upload, waitFor } from './helpers.ts';
import { textPdf } from './fixtures.ts';

const GUIDE = `The pump station manual describes maintenance of the centrifugal pumps.

Each pump must be inspected every six months. The impeller wear ring clearance is measured with a feeler gauge.

Lubrication of the bearings uses a lithium grease; over-greasing causes overheating of the bearing housing.`;

t.test('a text file goes from upload to ready with chunks, status, revisions, events and search', async (t) => {
  const { tp, token, tenant } = await ingestionFixture(t);
  const collection = await createCollection(tp, token, 'Manuals');

  const answer = await upload(tp, token, collection, 'pumps.txt', GUIDE);
  t.equal(answer.status, 202);
  t.equal(answer.body.ingestion_status, 'pending');
  t.equal(answer.body.content_type, 'text/plain');
  t.equal(answer.body.filename, 'pumps.txt');
  t.match(answer.body.document_id, /^[0-9a-f-]{36}$/);
  const id = answer.body.document_id;

  const status = await waitFor(tp, token, id);
  t.equal(status.ingestion_status, 'ready');
  t.equal(status.stage, 'done');
  t.equal(status.progress_pct, 100);
  t.ok(status.chunk_count >= 1);
  t.match(status.revision_id, /^[0-9a-f-]{36}$/);
  t.equal(status.error, null);
  t.ok(status.started_at && status.completed_at);

  const document = await tp.request({ url: `/api/admin/documents/${id}`, token });
  t.equal(document.status, 200);
  t.equal(document.body.revisions.length, 1);
  t.equal(document.body.revisions[0].revision_number, 1);
  t.equal(document.body.revisions[0].status, 'ready');
  t.equal(document.body.revisions[0].is_latest, true);

  const chunks = await chunksOf(tp, token, id);
  t.equal(chunks.items.length, status.chunk_count);
  t.equal(chunks.items[0].page, 0, 'plain text has no pages');
  t.ok(chunks.items.every((c: { text: string; char_start: number; char_end: number }) => GUIDE.slice(c.char_start, c.char_end) === c.text),
    'chunk text is the exact span of the revision text');

  const found = await search(tp, token, 'bearing grease');
  t.equal(found.mode, 'keyword');
  t.equal(found.results[0].document_id, id);
  t.equal(found.results[0].doc_name, 'pumps.txt');
  t.match(found.results[0].text, /lithium grease/);
  const fuzzy = await search(tp, token, 'impeler');
  t.equal(fuzzy.results[0]?.document_id, id, 'a misspelt word is widened through the trigram vocabulary');
  t.same((await search(tp, token, 'zeppelin')).results, []);

  const fn = await callFunction(tp, token, 'search_documents', { query: 'feeler gauge clearance', top_k: 3 });
  t.equal(fn.status, 200);
  const hit = fn.body.result.results[0];
  t.equal(hit.chunk_id, chunks.items.find((c: { text: string }) => /feeler/.test(c.text)).chunk_id);
  t.equal(hit.revision_id, status.revision_id);
  t.equal(hit.doc_name, 'pumps.txt');
  t.equal(hit.page, 0);
  t.type(hit.score, 'number');

  const read = await callFunction(tp, token, 'read_document', { document_id: id });
  t.equal(read.status, 200);
  t.equal(read.body.result.revision_id, status.revision_id);
  t.equal(read.body.result.chunks.length, status.chunk_count);
  t.ok(read.body.result.chunks.every((c: { chunk_id: string; revision_id: string }) => c.chunk_id && c.revision_id === status.revision_id));
  const badArgs = await callFunction(tp, token, 'read_document', { document_id: id, page: -1 });
  t.equal(badArgs.status, 400);
  const unknown = await callFunction(tp, token, 'read_document', { document_id: '00000000-0000-4000-8000-000000000000' });
  t.equal(unknown.status, 404);

  // The contract other plugins use.
  const api = tp.platform.server.plugins.ingestion.api;
  const core = tp.platform.server.plugins.core.services;
  const record = await core.withTenant(tenant, (trx) => api.getChunk(trx, hit.chunk_id));
  t.equal(record?.text, hit.text);
  t.equal(record?.revision_number, 1);
  t.equal(record?.document_name, 'pumps.txt');
  t.equal(record?.is_latest_revision, true);
  t.equal(record?.document_deleted, false);
  const many = await core.withTenant(tenant, (trx) => api.getChunks(trx, [hit.chunk_id, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']));
  t.equal(many.length, 1);
  const viaApi = await core.withTenant(tenant, (trx) => api.search(trx, { query: 'lubrication' }));
  t.equal(viaApi[0].document_id, id);
  const summary = await core.withTenant(tenant, (trx) => api.getDocument(trx, id));
  t.same(summary, { document_id: id, name: 'pumps.txt', collection_id: collection, content_type: 'text/plain', ingestion_status: 'ready', deleted: false });

  const events = await until(async () => {
    const items = await eventsOf(tp, token);
    return items.length >= 2 ? items : undefined;
  }, 'the document events');
  const uploadedEvent = events.find((e) => e.type === 'document.uploaded')!;
  t.same(
    { document_id: uploadedEvent.data.document_id, collection_id: uploadedEvent.data.collection_id, content_type: uploadedEvent.data.content_type, filename: uploadedEvent.data.filename },
    { document_id: id, collection_id: collection, content_type: 'text/plain', filename: 'pumps.txt' },
  );
  t.ok('page_count' in uploadedEvent.data);
  const ingested = events.find((e) => e.type === 'document.ingested')!;
  t.equal(ingested.data.document_id, id);
  t.equal(ingested.data.page_count, 0);
  t.equal(ingested.data.revision_id, status.revision_id);
  const { seq: _seq, dispatched: _dispatched, ...envelope } = ingested as Record<string, unknown>;
  t.doesNotThrow(() => new CloudEvent(envelope as never, true), 'a valid CloudEvent');

  // Delete: gone from search and listings; chunks remain readable for citations.
  const deleted = await tp.request({ method: 'DELETE', url: `/api/admin/documents/${id}`, token });
  t.equal(deleted.status, 204);
  t.same((await search(tp, token, 'bearing grease')).results, []);
  const listed = await tp.request({ url: `/api/admin/collections/${collection}/documents`, token });
  t.equal(listed.body.total, 0);
  const kept = await core.withTenant(tenant, (trx) => api.getChunk(trx, hit.chunk_id));
  t.equal(kept?.text, hit.text);
  t.equal(kept?.document_deleted, true);
  t.equal((await statusOf(tp, token, id)).ingestion_status, 'ready');
});

t.test('Markdown and JSON reach ready with sections and pages 0', async (t) => {
  const { tp, token } = await ingestionFixture(t);
  const collection = await createCollection(tp, token, 'Docs');
  const markdown = '# Setup\n\nInstall the agent with the package manager.\n\n## Configuration\n\nSet the token in the environment.\n\n<script>alert("x")</script>\n\n# Usage\n\nRun the agent.\n';
  const md = await ingest(tp, token, collection, 'guide.md', markdown);
  t.equal(md.status.ingestion_status, 'ready');
  const mdChunks = await chunksOf(tp, token, md.id);
  t.same(mdChunks.items.map((c: { section: string }) => c.section), ['Setup', 'Setup > Configuration', 'Usage']);
  t.notOk(mdChunks.items.some((c: { text: string }) => c.text.includes('alert')), 'scripts are dropped');
  const doc = await tp.request({ url: `/api/admin/documents/${md.id}`, token });
  t.equal(doc.body.content_type, 'text/markdown');

  const json = await ingest(tp, token, collection, 'data.bin', JSON.stringify({ station: 'north', pumps: [{ id: 1, model: 'centrifugal' }] }));
  t.equal(json.status.ingestion_status, 'ready');
  const detail = await tp.request({ url: `/api/admin/documents/${json.id}`, token });
  t.equal(detail.body.content_type, 'application/json', 'typed from the bytes, not the name');
  const jsonChunks = await chunksOf(tp, token, json.id);
  t.equal(jsonChunks.items[0].page, 0);
  t.match(jsonChunks.items[0].text, /centrifugal/);
});

t.test('bad uploads: 413 over the limit, 415 unsupported, 404 unknown collection, 400 without a file; nothing changes', async (t) => {
  const { tp, token } = await ingestionFixture(t, { env: { INGESTION_MAX_DOC_SIZE: '2000' } });
  const collection = await createCollection(tp, token, 'Small');
  const big = await upload(tp, token, collection, 'big.txt', 'x'.repeat(2001));
  t.equal(big.status, 413);
  t.match(big.body.message, /too large/i);
  const huge = await upload(tp, token, collection, 'huge.txt', 'y'.repeat(3 * 1024 * 1024));
  t.equal(huge.status, 413, 'beyond what hapi reads at all');
  const zip = Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200, 1)]);
  const binary = await upload(tp, token, collection, 'archive.txt', zip);
  t.equal(binary.status, 415);
  t.match(binary.body.message, /application\/pdf/);
  t.match(binary.body.message, /text\/plain/);
  t.equal((await upload(tp, token, 999999, 'a.txt', 'hello there')).status, 404);
  const noFile = await tp.request({ method: 'POST', url: `/api/admin/collections/${collection}/documents`, token, payload: { name: 'x' } });
  t.equal(noFile.status, 415, 'a JSON body is not a multipart upload');
  const listed = await tp.request({ url: '/api/admin/documents', token });
  t.equal(listed.body.total, 0);
  t.equal((await tp.request({ url: '/api/admin/documents/not-a-uuid', token })).status, 400);
  t.equal((await tp.request({ method: 'POST', url: '/api/admin/collections', token, payload: { name: 'x', bogus: 1 } })).status, 400);
});

t.test('file parts keep their bytes whatever Content-Type the browser declared (text/plain, text/markdown, application/pdf)', async (t) => {
  const { tp, token } = await ingestionFixture(t);
  const collection = await createCollection(tp, token, 'Browser');
  const send = (filename: string, content: Buffer | string, contentType: string) => {
    const { payload, headers } = multipart([{ name: 'file', filename, content, contentType }]);
    return tp.request({ method: 'POST', url: `/api/admin/collections/${collection}/documents`, token, payload, headers });
  };
  const text = 'Manutenção da bomba: inspeção semestral do rotor.';
  const plain = await send('bomba.txt', text, 'text/plain; charset=utf-8');
  t.equal(plain.status, 202, JSON.stringify(plain.body));
  t.equal(plain.body.content_type, 'text/plain');
  t.equal((await waitFor(tp, token, plain.body.document_id)).ingestion_status, 'ready');
  t.equal((await chunksOf(tp, token, plain.body.document_id)).items[0].text, text, 'the bytes arrive unchanged');
  const markdown = await send('notes.md', '# Valves\n\nGate valves isolate the pump.', 'text/markdown');
  t.equal(markdown.status, 202, JSON.stringify(markdown.body));
  const pdf = await send('manual.pdf', await textPdf(), 'application/pdf');
  t.equal(pdf.status, 202, JSON.stringify(pdf.body));
  t.equal(pdf.body.content_type, 'application/pdf');
  t.equal(pdf.body.filename, 'manual.pdf');
  const field = multipart([{ name: 'file', content: 'no filename: a plain form field' }]);
  const noPart = await tp.request({ method: 'POST', url: `/api/admin/collections/${collection}/documents`, token, ...field });
  t.equal(noPart.status, 400);
  t.match(noPart.body.message, /file part/);
});

t.test('search is tenant-isolated', async (t) => {
  const { tp, token } = await ingestionFixture(t);
  const { tenantWithAdmin } = await import('agent-platform/sdk/testing');
  const other = await tenantWithAdmin(tp, 'globex');
  const mine = await createCollection(tp, token, 'Mine');
  const theirs = await createCollection(tp, other.token, 'Theirs');
  const a = await ingest(tp, token, mine, 'a.txt', 'The secret formula of acme is copper and zinc.');
  const b = await ingest(tp, other.token, theirs, 'b.txt', 'The secret formula of globex is tin and lead.');
  t.equal(a.status.ingestion_status, 'ready');
  t.equal(b.status.ingestion_status, 'ready');
  const acme = await search(tp, token, 'secret formula');
  t.same(acme.results.map((r: { document_id: string }) => r.document_id), [a.id]);
  const globex = await callFunction(tp, other.token, 'search_documents', { query: 'secret formula' });
  t.same(globex.body.result.results.map((r: { document_id: string }) => r.document_id), [b.id]);
  t.equal((await tp.request({ url: `/api/admin/documents/${a.id}`, token: other.token })).status, 404);
  t.equal((await callFunction(tp, other.token, 'read_document', { document_id: a.id })).status, 404);
  t.equal((await search(tp, other.token, 'anything', `&collection_id=${mine}`)).results.length, 0);
});

import { until } from 'agent-platform/sdk/testing';
