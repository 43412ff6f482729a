// Real files of every supported content type, generated here: PDFs with
// pdf-lib (text, a table page, a drawing page, an image-only scan), DOCX with
// docx, PPTX with pptxgenjs, PNG/JPEG/WebP rendered with @napi-rs/canvas, BMP
// and TIFF written by the small encoders below.
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import pptxgen from 'pptxgenjs';

// pptxgenjs's CommonJS default export, typed as its class.
const PptxGenJS = pptxgen as unknown as typeof import('pptxgenjs').default;

/** A white image with black text lines, as RGBA pixels and an encoder of them. */
export function textImage(lines: string[], width = 900, lineHeight = 60) {
  const height = lineHeight * lines.length + 40;
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#000000';
  context.font = '40px sans-serif';
  lines.forEach((line, i) => context.fillText(line, 20, 60 + i * lineHeight));
  return { canvas, pixels: context.getImageData(0, 0, width, height), width, height };
}

export async function encodedImage(lines: string[], format: 'png' | 'jpeg' | 'webp'): Promise<Buffer> {
  return Buffer.from(await textImage(lines).canvas.encode(format as never));
}

/** 24-bit bottom-up BMP. */
export function bmp(lines: string[]): Buffer {
  const { pixels: { data }, width, height } = textImage(lines);
  const row = Math.ceil((width * 3) / 4) * 4;
  const out = Buffer.alloc(54 + row * height);
  out.write('BM');
  out.writeUInt32LE(out.length, 2);
  out.writeUInt32LE(54, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(width, 18);
  out.writeInt32LE(height, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(24, 28);
  out.writeUInt32LE(row * height, 34);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const o = 54 + (height - 1 - y) * row + x * 3;
      out[o] = data[i + 2];
      out[o + 1] = data[i + 1];
      out[o + 2] = data[i];
    }
  }
  return out;
}

/** Baseline uncompressed RGB TIFF, little-endian, one strip. */
export function tiff(lines: string[]): Buffer {
  const { pixels: { data }, width, height } = textImage(lines);
  const rgbBytes = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    rgbBytes[i * 3] = data[i * 4];
    rgbBytes[i * 3 + 1] = data[i * 4 + 1];
    rgbBytes[i * 3 + 2] = data[i * 4 + 2];
  }
  const tags: [number, number, number, number][] = [];
  const header = Buffer.alloc(8);
  header.write('II');
  header.writeUInt16LE(42, 2);
  header.writeUInt32LE(8, 4);
  const count = 10;
  const ifdSize = 2 + count * 12 + 4;
  const bpsOffset = 8 + ifdSize;
  const dataOffset = bpsOffset + 6;
  tags.push([256, 3, 1, width], [257, 3, 1, height], [258, 3, 3, bpsOffset], [259, 3, 1, 1], [262, 3, 1, 2], [273, 4, 1, dataOffset],
    [277, 3, 1, 3], [278, 3, 1, height], [279, 4, 1, rgbBytes.length], [284, 3, 1, 1]);
  const ifd = Buffer.alloc(ifdSize);
  ifd.writeUInt16LE(count, 0);
  tags.forEach(([tag, type, n, value], k) => {
    const o = 2 + k * 12;
    ifd.writeUInt16LE(tag, o);
    ifd.writeUInt16LE(type, o + 2);
    ifd.writeUInt32LE(n, o + 4);
    if (type === 3 && n === 1) ifd.writeUInt16LE(value, o + 8);
    else ifd.writeUInt32LE(value, o + 8);
  });
  const bps = Buffer.alloc(6);
  bps.writeUInt16LE(8, 0);
  bps.writeUInt16LE(8, 2);
  bps.writeUInt16LE(8, 4);
  return Buffer.concat([header, ifd, bps, rgbBytes]);
}

/** Page 1: prose; page 2: a table (4 aligned columns); page 3: a drawing (shapes, a short label). */
export async function textPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const prose = pdf.addPage([595, 842]);
  const lines = [
    'Maintenance manual for the north pump station.',
    'The centrifugal pumps are inspected every six months.',
    'Replace the mechanical seal when leakage exceeds ten drops per minute.',
  ];
  lines.forEach((line, i) => prose.drawText(line, { x: 50, y: 780 - i * 20, size: 12, font }));
  const table = pdf.addPage([595, 842]);
  const rows = [['Pump', 'Flow', 'Head', 'Power'], ['P-101', '120', '45', '30'], ['P-102', '95', '40', '22'], ['P-103', '150', '52', '37'], ['P-104', '80', '35', '18']];
  rows.forEach((row, r) => row.forEach((cell, c) => table.drawText(cell, { x: 60 + c * 120, y: 780 - r * 22, size: 12, font })));
  const drawing = pdf.addPage([595, 842]);
  drawing.drawRectangle({ x: 100, y: 300, width: 300, height: 200, borderColor: rgb(0, 0, 0), borderWidth: 4, color: rgb(0.6, 0.7, 0.9) });
  drawing.drawCircle({ x: 250, y: 600, size: 80, borderColor: rgb(0, 0, 0), borderWidth: 4, color: rgb(0.9, 0.5, 0.3) });
  drawing.drawLine({ start: { x: 100, y: 100 }, end: { x: 500, y: 700 }, thickness: 5, color: rgb(0, 0, 0) });
  drawing.drawText('Figure 1: impeller', { x: 200, y: 250, size: 10, font });
  return Buffer.from(await pdf.save());
}

/** An image-only PDF: the page is a rendered picture of text (no text layer). */
export async function scannedPdf(lines: string[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(await encodedImage(lines, 'png'));
  const page = pdf.addPage([image.width, image.height]);
  page.drawImage(image, { x: 0, y: 0, width: image.width, height: image.height });
  return Buffer.from(await pdf.save());
}

export function corruptPdf(): Buffer {
  return Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('this is not a pdf body at all, no objects, no xref\n'.repeat(20))]);
}

export async function docx(): Promise<Buffer> {
  const document = new Document({
    sections: [{
      children: [
        new Paragraph({ text: 'Safety procedures', heading: HeadingLevel.HEADING_1 }),
        new Paragraph('Always isolate the electrical supply before opening the pump casing.'),
        new Paragraph({ text: 'Lockout', heading: HeadingLevel.HEADING_2 }),
        new Paragraph('Apply a personal padlock to the isolator and keep the key.'),
        new Paragraph({ text: 'Emergency contacts', heading: HeadingLevel.HEADING_1 }),
        new Paragraph('Call the control room on extension 4400.'),
      ],
    }],
  });
  return Buffer.from(await Packer.toBuffer(document));
}

export async function pptx(): Promise<Buffer> {
  const deck = new PptxGenJS();
  deck.defineSlideMaster({
    title: 'TITLED',
    objects: [{ placeholder: { options: { name: 'title', type: 'title', x: 0.5, y: 0.3, w: 9, h: 1 }, text: '' } }],
  });
  const first = deck.addSlide({ masterName: 'TITLED' });
  first.addText('Quarterly results', { placeholder: 'title' });
  first.addText('Revenue grew by twelve percent in the southern region.', { x: 0.5, y: 2, w: 9, h: 1 });
  first.addNotes('Mention the new distributor contract.');
  const second = deck.addSlide({ masterName: 'TITLED' });
  second.addText('Next steps', { placeholder: 'title' });
  second.addText('Open two warehouses before the winter season.', { x: 0.5, y: 2, w: 9, h: 1 });
  return Buffer.from(await deck.write({ outputType: 'nodebuffer' }) as ArrayBuffer);
}

export const html = `<!doctype html><html><head><title>Ignored title</title><style>body{color:red}</style></head>
<body><nav><a href="/">Home</a><a href="/about">About us navigation</a></nav>
<h1>Valve catalogue</h1><p>Gate valves isolate the flow completely.</p>
<h2>Butterfly valves</h2><p>Butterfly valves regulate the flow with a rotating disc.</p>
<script>window.tracking = "should never be indexed";</script></body></html>`;

export const csv = ['pump,flow_m3h,head_m,status', ...Array.from({ length: 60 }, (_, i) => `P-${100 + i},${80 + i},${30 + (i % 10)},${i % 7 === 0 ? 'maintenance' : 'running'}`)].join('\n');

export const yaml = 'station: north\npumps:\n  - id: P-101\n    model: centrifugal\n  - id: P-102\n    model: submersible\n';

export const xml = '<?xml version="1.0"?>\n<station name="north"><pump id="P-101">centrifugal booster</pump><pump id="P-102">submersible drainage</pump></station>\n';
