// Parser memory limits. A decompression-bomb DOCX (a 200 KB zip whose
// document.xml inflates to 80 MiB of tiny paragraphs) fails before its parser
// runs: zip-bound.ts inflates the entries under a budget of a quarter of
// INGESTION_PARSER_MAX_MEMORY_MB. A DOCX just under that budget still needs
// more heap than the parser has once mammoth builds its tree: it aborts the
// parser's child process (V8's heap-limit abort), never the server, and fails
// with PARSE_OUT_OF_MEMORY; /health keeps answering and the next document
// parses in a fresh process.
import JSZip from 'jszip';
import t from 'tap';
import { docx } from './fixtures.ts';
import { createCollection, eventsOf, ingest, ingestionFixture } from './helpers.ts';

/** A valid DOCX whose body is `mb` MiB of one repeated paragraph (deflate shrinks it about 300 times). */
async function bombDocx(mb: number): Promise<Buffer> {
  const zip = await JSZip.loadAsync(await docx());
  const xml = await zip.file('word/document.xml')!.async('string');
  const open = xml.slice(0, xml.indexOf('<w:body>') + '<w:body>'.length);
  const close = xml.slice(xml.indexOf('</w:body>'));
  const paragraph = '<w:p><w:r><w:t>bomb</w:t></w:r></w:p>';
  const body = Buffer.from(paragraph.repeat(Math.ceil((mb * 1024 * 1024) / paragraph.length)));
  zip.file('word/document.xml', Buffer.concat([Buffer.from(open), body, Buffer.from(close)]));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

t.test('a bomb DOCX fails before parsing; one that exhausts the parser heap fails alone; the server and the next document live on', async (t) => {
  const bomb = await bombDocx(80);
  t.ok(bomb.length < 1024 * 1024, `the bomb is small on the wire (${bomb.length} bytes)`);
  const heavy = await bombDocx(30);
  const { tp, token } = await ingestionFixture(t, { env: { INGESTION_PARSER_MAX_MEMORY_MB: '128', INGESTION_MAX_ACTIVITIES: '1' } });
  const collection = await createCollection(tp, token, 'Bombs');
  const failedEvent = async (id: string) => (await eventsOf(tp, token, 'document.ingestion_failed')).find((event) => event.data.document_id === id);

  const exploded = await ingest(tp, token, collection, 'bomb.docx', bomb);
  t.equal(exploded.status.ingestion_status, 'error');
  t.equal(exploded.status.stage, 'parse_and_chunk');
  t.match(exploded.status.error, /expands past 32 MiB when unzipped \(a quarter of INGESTION_PARSER_MAX_MEMORY_MB\)/);
  t.match((await failedEvent(exploded.id))?.data.error, /expands past 32 MiB/);

  const exhausted = await ingest(tp, token, collection, 'heavy.docx', heavy);
  t.equal(exhausted.status.ingestion_status, 'error');
  t.equal(exhausted.status.stage, 'parse_and_chunk');
  t.match(exhausted.status.error, /^PARSE_OUT_OF_MEMORY: the parser ran out of memory \(over its 128 MiB heap, INGESTION_PARSER_MAX_MEMORY_MB\)/);
  t.match((await failedEvent(exhausted.id))?.data.error, /PARSE_OUT_OF_MEMORY/);
  t.equal((await tp.request({ url: '/health' })).status, 200, 'the server lives on');

  const next = await ingest(tp, token, collection, 'safety.docx', await docx());
  t.equal(next.status.ingestion_status, 'ready', 'the next document parses');
});
