// JSON, YAML, XML and plain text: decoded as UTF-8 and chunked by character
// span without layout analysis: one segment, page 0, no sections.
import { ParseError, TextBuilder, type ParsedDocument } from './types.ts';

export function decodeText(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ParseError('The file is not valid UTF-8 text');
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text.replace(/\r\n?/g, '\n');
}

export function parsePlain(bytes: Uint8Array): ParsedDocument {
  const builder = new TextBuilder();
  const text = decodeText(bytes);
  if (text.trim() === '') throw new ParseError('The document has no text');
  const { start, end } = builder.append(text);
  builder.segment(start, end, 0, null);
  return builder.finish('utf8-text', 0);
}
