// A decompression-bomb DOCX (a 200 KB zip whose document.xml inflates to
// 80 MiB of tiny paragraphs, far more once parsed) fails that document before
// its parser runs: zip-bound.ts inflates the entries under a budget of a
// quarter of INGESTION_PARSER_MAX_MEMORY_MB (issue 13 item 10). The parser
// thread's heap limit stays as a second line, but V8 can abort the whole
// process when a worker reaches it, so the bomb must never get that far.
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

t.test('a decompression-bomb DOCX fails that document (expands past the budget); the next document still parses', async (t) => {
  const bomb = await bombDocx(80);
  t.ok(bomb.length < 1024 * 1024, `the bomb is small on the wire (${bomb.length} bytes)`);
  const { tp, token } = await ingestionFixture(t, { env: { INGESTION_PARSER_MAX_MEMORY_MB: '256', INGESTION_MAX_ACTIVITIES: '1' } });
  const collection = await createCollection(tp, token, 'Bombs');

  const exploded = await ingest(tp, token, collection, 'bomb.docx', bomb);
  t.equal(exploded.status.ingestion_status, 'error');
  t.equal(exploded.status.stage, 'parse_and_chunk');
  t.match(exploded.status.error, /expands past 64 MiB when unzipped \(a quarter of INGESTION_PARSER_MAX_MEMORY_MB\)/);
  const failed = (await eventsOf(tp, token, 'document.ingestion_failed')).find((event) => event.data.document_id === exploded.id);
  t.match(failed?.data.error, /expands past 64 MiB/);

  const next = await ingest(tp, token, collection, 'safety.docx', await docx());
  t.equal(next.status.ingestion_status, 'ready', 'the next document parses');
  t.equal((await tp.request({ url: '/health' })).status, 200, 'the server lives on');
});
