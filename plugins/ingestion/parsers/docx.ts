// DOCX: mammoth turns the document into HTML (Word heading styles become
// <h1>..<h6>), which the HTML block walker turns into text with sections.
import { blocksToDocument, htmlToBlocks } from './html.ts';
import { ParseError, type ParsedDocument } from './types.ts';

export async function parseDocx(bytes: Uint8Array): Promise<ParsedDocument> {
  const mammoth = (await import('mammoth')).default;
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) }));
  } catch (err) {
    throw new ParseError(`Invalid DOCX: ${(err as Error).message}`);
  }
  return blocksToDocument(htmlToBlocks(html), 'mammoth');
}
