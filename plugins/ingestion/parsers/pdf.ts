// PDF: text per page from pdfjs-dist's text layer (lines rebuilt from the
// items' end-of-line marks). Pages are classified, and rendered
// (@napi-rs/canvas, through pdfjs's Node canvas factory) at
// INGESTION_PAGE_IMAGE_DPI up to MAX_RENDER_PAGES when their text layer cannot
// tell (under 200 characters: scans, drawings) or page images are kept:
//   table   - text items fall into at least 3 aligned columns on most rows,
//   drawing - little text (under 200 characters) but ink on the page,
//   text    - otherwise.
// A page without a text layer is OCR'd (INGESTION_OCR_ENABLED) from its render.
// Each page is a segment (chunks never cross pages); no sections (PDF outlines
// are not reliable enough to name chunks).
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { ParseError, TextBuilder, type PageImage, type ParseOptions, type ParsedDocument } from './types.ts';
import type { PageKind } from '../store/tables.ts';
import { createOcr, type OcrEngine } from './ocr.ts';

const require = createRequire(import.meta.url);
const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));
const STANDARD_FONTS = pathToFileURL(path.join(PDFJS_DIR, 'standard_fonts') + path.sep).href;
const DRAWING_TEXT_LIMIT = 200;
/** Share of inked pixels above which a page with little text is a drawing (a page of a few text lines inks about 1%). */
const DRAWING_INK_RATIO = 0.03;

interface TextItem {
  str: string;
  hasEOL?: boolean;
  transform: number[];
}

function pageText(items: TextItem[]): string {
  let text = '';
  for (const item of items) {
    text += item.str;
    if (item.hasEOL) text += '\n';
  }
  return text.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
}

/** At least 3 rows whose items start at 3+ shared x positions (columns), and such rows are most of the page. */
function looksLikeTable(items: TextItem[]): boolean {
  const rows = new Map<number, number[]>();
  for (const item of items) {
    if (!item.str.trim()) continue;
    const y = Math.round(item.transform[5] / 3);
    rows.set(y, [...(rows.get(y) ?? []), Math.round(item.transform[4] / 4)]);
  }
  const multi = [...rows.values()].filter((xs) => xs.length >= 3);
  if (multi.length < 3 || multi.length < rows.size * 0.5) return false;
  const counts = new Map<number, number>();
  for (const xs of multi) for (const x of new Set(xs)) counts.set(x, (counts.get(x) ?? 0) + 1);
  const columns = [...counts.values()].filter((n) => n >= multi.length * 0.6).length;
  return columns >= 3;
}

/** Share of pixels that are not (near) white. */
function inkRatio(data: Uint8ClampedArray): number {
  let ink = 0;
  const pixels = data.length / 4;
  for (let i = 0; i < data.length; i += 16) if (data[i] < 200 || data[i + 1] < 200 || data[i + 2] < 200) ink++;
  return ink / (pixels / 4);
}

export async function parsePdf(bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const loading = pdfjs.getDocument({
    data: new Uint8Array(bytes), standardFontDataUrl: STANDARD_FONTS, useSystemFonts: false, verbosity: 0,
  });
  let doc;
  try {
    doc = await loading.promise;
  } catch (err) {
    throw new ParseError(`Invalid PDF: ${(err as Error).message}`);
  }
  const builder = new TextBuilder();
  const images: PageImage[] = [];
  const warnings: string[] = [];
  let ocr: OcrEngine | undefined;
  let drawingsKept = 0;
  try {
    for (let number = 1; number <= doc.numPages; number++) {
      options.signal?.throwIfAborted();
      const page = await doc.getPage(number);
      const content = await page.getTextContent();
      const items = content.items.filter((item) => 'str' in item) as unknown as TextItem[];
      let text = pageText(items);
      let kind: PageKind = looksLikeTable(items) ? 'table' : 'text';
      let ocrUsed = false;
      let rendered = false;
      // A page with a text layer of some length is classified from it; the
      // others (scans, drawings, near-empty pages) are rendered to tell (and
      // to OCR), as is every page when page images are kept.
      const needsRender = text.length < DRAWING_TEXT_LIMIT || options.keepAllImages;
      if (needsRender && number <= options.maxRenderPages) {
        const viewport = page.getViewport({ scale: options.pageImageDpi / 72 });
        const factory = (doc as unknown as { canvasFactory: { create(w: number, h: number): { canvas: any; context: any } } }).canvasFactory;
        const { canvas, context } = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
        context.fillStyle = '#ffffff';
        context.fillRect(0, 0, canvas.width, canvas.height);
        await page.render({ canvasContext: context, viewport, canvas } as never).promise;
        rendered = true;
        let png: Buffer | undefined;
        const encoded = () => (png ??= canvas.toBuffer('image/png') as Buffer);
        if (text.length === 0 && options.ocrEnabled) {
          ocr ??= await createOcr(options.ocrLangPath, options.ocrLanguages);
          text = await ocr.recognize(encoded());
          ocrUsed = true;
        }
        if (kind === 'text' && text.length < DRAWING_TEXT_LIMIT) {
          const ink = inkRatio(context.getImageData(0, 0, canvas.width, canvas.height).data);
          if (ink > DRAWING_INK_RATIO) kind = 'drawing';
        }
        if (options.keepAllImages || (kind === 'drawing' && drawingsKept < options.keepDrawingImages)) {
          images.push({ page: number, kind, png: encoded() });
          if (kind === 'drawing') drawingsKept++;
        }
      } else if (text.length === 0) {
        warnings.push(`page ${number} has no text layer and is past MAX_RENDER_PAGES: not OCR'd`);
      }
      const { start, end } = builder.append(text);
      builder.pages.push({ page: number, char_start: start, char_end: end, kind, ocr: ocrUsed, rendered });
      builder.segment(start, end, number, null, ocrUsed ? 'ocr' : kind === 'table' ? 'table' : 'text');
      page.cleanup();
    }
  } finally {
    await ocr?.close();
    await loading.destroy();
  }
  if (builder.text.trim() === '' && images.length === 0) {
    throw new ParseError(options.ocrEnabled ? 'The PDF has no text (not even through OCR)' : 'The PDF has no text layer and OCR is disabled');
  }
  return builder.finish('pdfjs', doc.numPages, { images, warnings });
}
