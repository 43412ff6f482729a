// Images (PNG, JPEG, TIFF, WebP, BMP): their text through OCR. One page (1),
// one segment. With OCR disabled an image has no text: a parse error.
// With page-image retrieval (keepAllImages) the image itself is kept as page
// 1's image, re-encoded as PNG (at most 2048 px on its longer side).
import { ParseError, TextBuilder, type PageImage, type ParseOptions, type ParsedDocument } from './types.ts';
import { createOcr } from './ocr.ts';

const MAX_SIDE = 2048;

/** The image as a PNG page image, or a warning when @napi-rs/canvas cannot decode its format (BMP, TIFF). */
async function pageImageOf(bytes: Uint8Array): Promise<PageImage | string> {
  try {
    const { createCanvas, loadImage } = await import('@napi-rs/canvas');
    const image = await loadImage(Buffer.from(bytes));
    const scale = Math.min(1, MAX_SIDE / Math.max(image.width, image.height));
    const canvas = createCanvas(Math.max(1, Math.round(image.width * scale)), Math.max(1, Math.round(image.height * scale)));
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    return { page: 1, kind: 'text', png: canvas.toBuffer('image/png') };
  } catch (err) {
    return `the image could not be kept for page-image retrieval: ${(err as Error).message}`;
  }
}

export async function parseImage(bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
  if (!options.ocrEnabled) throw new ParseError('Images are read by OCR, and OCR is disabled (INGESTION_OCR_ENABLED=false)');
  const ocr = await createOcr(options.ocrLangPath, options.ocrLanguages);
  let text: string;
  try {
    text = await ocr.recognize(Buffer.from(bytes));
  } catch (err) {
    throw new ParseError(`The image could not be read: ${(err as Error).message}`);
  } finally {
    await ocr.close();
  }
  if (text === '') throw new ParseError('No text was recognized in the image');
  const builder = new TextBuilder();
  const { start, end } = builder.append(text);
  builder.pages.push({ page: 1, char_start: start, char_end: end, kind: 'text', ocr: true, rendered: false });
  builder.segment(start, end, 1, null, 'ocr');
  const images: PageImage[] = [];
  const warnings: string[] = [];
  if (options.keepAllImages) {
    const kept = await pageImageOf(bytes);
    if (typeof kept === 'string') warnings.push(kept);
    else images.push(kept);
  }
  return builder.finish('tesseract', 1, { images, warnings });
}
