// Parser memory limits, at the smallest INGESTION_PARSER_MAX_MEMORY_MB (64).
// A decompression-bomb DOCX (a 130 KB zip whose document.xml inflates to
// 40 MiB of tiny paragraphs) fails before its parser runs: zip-bound.ts
// inflates the entries under a budget of a quarter of
// INGESTION_PARSER_MAX_MEMORY_MB. A DOCX just under that budget still needs
// more heap than the parser has once mammoth builds its tree: it aborts the
// parser's child process (V8's heap-limit abort), never the server, and fails
// with PARSE_OUT_OF_MEMORY; /health keeps answering and the next document
// parses in a fresh process.
import { crc32, deflateRawSync } from 'node:zlib';
import JSZip from 'jszip';
import t from 'tap';
import { docx } from './fixtures.ts';
import { createCollection, eventsOf, ingest, ingestionFixture } from './helpers.ts';

/**
 * A ZIP archive of the given entries, each deflated by zlib at level 9. Native zlib: JSZip's JavaScript deflate
 * takes seconds of CPU for the tens of MiB below.
 */
function zipOf(entries: [string, Buffer][]): Buffer {
  const DOS_DATE_1980_01_01 = (1 << 5) | 1;
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const path = Buffer.from(name);
    const packed = deflateRawSync(data, { level: 9 });
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(DOS_DATE_1980_01_01, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(path.length, 26);
    parts.push(local, path, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(DOS_DATE_1980_01_01, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(path.length, 28);
    central.writeUInt32LE(offset, 42);
    directory.push(central, path);
    offset += local.length + path.length + packed.length;
  }
  const listing = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(listing.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, listing, end]);
}

/** A valid DOCX whose body is `mb` MiB of one repeated paragraph (deflate shrinks it about 300 times). */
async function bombDocx(mb: number): Promise<Buffer> {
  const zip = await JSZip.loadAsync(await docx());
  const entries: [string, Buffer][] = [];
  for (const file of Object.values(zip.files)) {
    if (!file.dir) entries.push([file.name, await file.async('nodebuffer')]);
  }
  const document = entries.find(([name]) => name === 'word/document.xml')!;
  const xml = document[1].toString();
  const open = xml.slice(0, xml.indexOf('<w:body>') + '<w:body>'.length);
  const close = xml.slice(xml.indexOf('</w:body>'));
  const paragraph = '<w:p><w:r><w:t>bomb</w:t></w:r></w:p>';
  const body = Buffer.from(paragraph.repeat(Math.ceil((mb * 1024 * 1024) / paragraph.length)));
  document[1] = Buffer.concat([Buffer.from(open), body, Buffer.from(close)]);
  return zipOf(entries);
}

t.test('a bomb DOCX fails before parsing; one that exhausts the parser heap fails alone; the server and the next document live on', async (t) => {
  const bomb = await bombDocx(40);
  t.ok(bomb.length < 1024 * 1024, `the bomb is small on the wire (${bomb.length} bytes)`);
  const heavy = await bombDocx(15);
  const { tp, token } = await ingestionFixture(t, { env: { INGESTION_PARSER_MAX_MEMORY_MB: '64', INGESTION_MAX_ACTIVITIES: '1' } });
  const collection = await createCollection(tp, token, 'Bombs');
  const failedEvent = async (id: string) => (await eventsOf(tp, token, 'document.ingestion_failed')).find((event) => event.data.document_id === id);

  const exploded = await ingest(tp, token, collection, 'bomb.docx', bomb);
  t.equal(exploded.status.ingestion_status, 'error');
  t.equal(exploded.status.stage, 'parse_and_chunk');
  t.match(exploded.status.error, /expands past 16 MiB when unzipped \(a quarter of INGESTION_PARSER_MAX_MEMORY_MB\)/);
  t.match((await failedEvent(exploded.id))?.data.error, /expands past 16 MiB/);

  const exhausted = await ingest(tp, token, collection, 'heavy.docx', heavy);
  t.equal(exhausted.status.ingestion_status, 'error');
  t.equal(exhausted.status.stage, 'parse_and_chunk');
  t.match(exhausted.status.error, /^PARSE_OUT_OF_MEMORY: the parser ran out of memory \(over its 64 MiB heap, INGESTION_PARSER_MAX_MEMORY_MB\)/);
  t.match((await failedEvent(exhausted.id))?.data.error, /PARSE_OUT_OF_MEMORY/);
  t.equal((await tp.request({ url: '/health' })).status, 200, 'the server lives on');

  const next = await ingest(tp, token, collection, 'safety.docx', await docx());
  t.equal(next.status.ingestion_status, 'ready', 'the next document parses');
});
