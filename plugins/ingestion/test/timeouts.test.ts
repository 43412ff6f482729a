// Stage timeouts. A parse past INGESTION_PARSE_TIMEOUT fails the run (its
// parser process is killed) with the timeout as the error text and
// document.ingestion_failed; embedding past INGESTION_EMBED_TIMEOUT is an
// enrichment failure: the document still becomes ready and keyword-searchable.
// Both use 1 s against work that cannot finish in it (20 pages of OCR, an
// embeddings server that never answers), so no timing margin is involved.
import t from 'tap';
import { PDFDocument } from 'pdf-lib';
import { encodedImage } from './fixtures.ts';
import { startEmbeddingsServer } from './embeddings-server.ts';
import { createCollection, eventsOf, ingest, ingestionFixture, search } from './helpers.ts';

async function longScan(pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(await encodedImage(['Pressure relief valve', 'Inspection record'], 'png'));
  for (let i = 0; i < pages; i++) pdf.addPage([image.width, image.height]).drawImage(image, { x: 0, y: 0, width: image.width, height: image.height });
  return Buffer.from(await pdf.save());
}

t.test('a parse past INGESTION_PARSE_TIMEOUT ends in error with the timeout and document.ingestion_failed', async (t) => {
  const { tp, token } = await ingestionFixture(t, { env: { INGESTION_PARSE_TIMEOUT: '1' } });
  const collection = await createCollection(tp, token, 'Slow');
  const doc = await ingest(tp, token, collection, 'scan.pdf', await longScan(20));
  t.equal(doc.status.ingestion_status, 'error');
  t.equal(doc.status.stage, 'parse_and_chunk');
  t.match(doc.status.error, /parse timed out after 1 s/);
  const failed = (await eventsOf(tp, token, 'document.ingestion_failed')).find((event) => event.data.document_id === doc.id);
  t.match(failed?.data.error, /parse timed out/);
  t.equal(failed?.data.stage, 'parse_and_chunk');
});

t.test('embedding past INGESTION_EMBED_TIMEOUT: still ready, the failure recorded, keyword search works', async (t) => {
  const embeddings = await startEmbeddingsServer(t, 16);
  embeddings.mode = 'hold';
  const { tp, token } = await ingestionFixture(t, {
    env: { INGESTION_EMBEDDING_BASE_URL: embeddings.url, INGESTION_EMBEDDING_DIMS: '16', INGESTION_EMBEDDING_RETRIES: '0', INGESTION_EMBED_TIMEOUT: '1' },
  });
  const collection = await createCollection(tp, token, 'Unembedded');
  const doc = await ingest(tp, token, collection, 'relief.txt', 'The relief valve opens at twelve bar.');
  t.equal(doc.status.ingestion_status, 'ready');
  const detail = await tp.request({ url: `/api/admin/documents/${doc.id}`, token });
  t.equal(detail.body.revisions[0].enrichment.embeddings.status, 'failed');
  t.match(detail.body.revisions[0].enrichment.embeddings.error, /embedding timed out after 1 s/);
  embeddings.release();
  embeddings.mode = 'fail';
  const found = await search(tp, token, 'relief valve');
  t.equal(found.mode, 'keyword', 'the query cannot be embedded either: keyword only');
  t.equal(found.results[0]?.document_id, doc.id, 'keyword search finds it');
});
