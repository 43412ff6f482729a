// One real file of every supported content type reaches `ready` with
// sensible chunks, pages and sections; a scanned PDF is read through OCR; a
// corrupt PDF ends in `error` with the parser's message and the failure event.
import t from 'tap';
import * as f from './fixtures.ts';
import { chunksOf, createCollection, eventsOf, ingestionFixture, uploaded, waitFor } from './helpers.ts';

t.test('every content type reaches ready with pages and sections', async (t) => {
  const { tp, token } = await ingestionFixture(t, { env: { INGESTION_MAX_CONCURRENT: '30' } });
  const collection = await createCollection(tp, token, 'All types');
  const ocrLines = ['Hydraulic valve seven', 'Pressure rating forty bar'];
  const files: [string, Buffer | string, string][] = [
    ['manual.pdf', await f.textPdf(), 'application/pdf'],
    ['scan.pdf', await f.scannedPdf(ocrLines), 'application/pdf'],
    ['safety.docx', await f.docx(), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['results.pptx', await f.pptx(), 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    ['valves.html', f.html, 'text/html'],
    ['pumps.csv', f.csv, 'text/csv'],
    ['plate.png', await f.encodedImage(ocrLines, 'png'), 'image/png'],
    ['plate.jpg', await f.encodedImage(ocrLines, 'jpeg'), 'image/jpeg'],
    ['plate.webp', await f.encodedImage(ocrLines, 'webp'), 'image/webp'],
    ['plate.bmp', f.bmp(ocrLines), 'image/bmp'],
    ['plate.tiff', f.tiff(ocrLines), 'image/tiff'],
    ['station.yaml', f.yaml, 'application/yaml'],
    ['station.xml', f.xml, 'application/xml'],
    ['notes.txt', 'Plain notes about the north station pumps.', 'text/plain'],
    ['readme.md', '# Readme\n\nThe station has four pumps.\n', 'text/markdown'],
    ['data.json', '{"station": "north", "pumps": 4}', 'application/json'],
  ];
  const ids = new Map<string, string>();
  for (const [name, content] of files) ids.set(name, await uploaded(tp, token, collection, name, content));
  const details = new Map<string, any>();
  for (const [name, , type] of files) {
    const status = await waitFor(tp, token, ids.get(name)!, ['ready', 'error'], 240_000);
    t.equal(status.ingestion_status, 'ready', `${name} is ready (${status.error ?? ''})`);
    const detail = (await tp.request({ url: `/api/admin/documents/${ids.get(name)}`, token })).body;
    t.equal(detail.content_type, type, `${name} is typed ${type}`);
    details.set(name, { status, detail, chunks: (await chunksOf(tp, token, ids.get(name)!)).items });
  }

  const pdf = details.get('manual.pdf');
  t.equal(pdf.detail.page_count, 3);
  t.same(pdf.chunks.map((c: { page: number }) => c.page), [1, 2, 3], 'one chunk per PDF page here');
  t.match(pdf.chunks[0].text, /mechanical seal/);
  t.equal(pdf.chunks[1].kind, 'table', 'the aligned page is classified as a table');
  const revision = await tp.request({ url: `/api/admin/documents/${ids.get('manual.pdf')}`, token });
  t.equal(revision.body.revisions[0].parser, 'pdfjs');

  const scan = details.get('scan.pdf');
  t.match(scan.chunks.map((c: { text: string }) => c.text).join(' '), /Hydraulic valve/i, 'the scanned page is read by OCR');
  t.equal(scan.chunks[0].kind, 'ocr');

  const word = details.get('safety.docx');
  t.same([...new Set(word.chunks.map((c: { section: string }) => c.section))], ['Safety procedures', 'Safety procedures > Lockout', 'Emergency contacts']);

  const slides = details.get('results.pptx');
  t.equal(slides.detail.page_count, 2);
  t.same(slides.chunks.map((c: { page: number; section: string }) => [c.page, c.section]), [[1, 'Quarterly results'], [2, 'Next steps']]);
  t.match(slides.chunks[0].text, /twelve percent/);
  t.match(slides.chunks[0].text, /distributor contract/, 'speaker notes are kept');

  const page = details.get('valves.html');
  const htmlText = page.chunks.map((c: { text: string }) => c.text).join('\n');
  t.notMatch(htmlText, /tracking|About us navigation|color:red/, 'scripts, navigation and styles are dropped');
  t.same(page.chunks.map((c: { section: string }) => c.section), ['Valve catalogue', 'Valve catalogue > Butterfly valves']);

  const table = details.get('pumps.csv');
  t.ok(table.chunks.length >= 1);
  t.ok(table.chunks.every((c: { text: string }) => c.text.startsWith('pump,flow_m3h,head_m,status')), 'every CSV chunk keeps the header');

  for (const name of ['plate.png', 'plate.jpg', 'plate.webp', 'plate.bmp', 'plate.tiff']) {
    const image = details.get(name);
    t.match(image.chunks.map((c: { text: string }) => c.text).join(' '), /valve/i, `${name} is read by OCR`);
    t.equal(image.chunks[0].page, 1);
  }
  for (const name of ['station.yaml', 'station.xml', 'notes.txt', 'data.json']) {
    t.equal(details.get(name).chunks[0].page, 0, `${name} has page 0`);
  }
});

t.test('a corrupt PDF ends in error with the parser message and document.ingestion_failed', async (t) => {
  const { tp, token } = await ingestionFixture(t);
  const collection = await createCollection(tp, token, 'Broken');
  const id = await uploaded(tp, token, collection, 'broken.pdf', f.corruptPdf());
  const status = await waitFor(tp, token, id);
  t.equal(status.ingestion_status, 'error');
  t.match(status.error, /Invalid PDF/);
  const errors = await tp.request({ url: `/api/admin/collections/${collection}/ingestion-errors`, token });
  t.equal(errors.body.total, 1);
  t.equal(errors.body.items[0].document_id, id);
  t.match(errors.body.items[0].error, /Invalid PDF/);
  const failed = (await eventsOf(tp, token, 'document.ingestion_failed'))[0];
  t.equal(failed?.data.document_id, id);
  t.match(failed?.data.error, /Invalid PDF/);
  const detail = await tp.request({ url: `/api/admin/documents/${id}`, token });
  t.equal(detail.body.revisions[0].status, 'failed');
});
