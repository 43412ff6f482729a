// Parses a document's bytes by content type and chunks the result; runs inside
// a parser child process (pipeline/parser-pool.ts; in the caller's thread only
// in the benchmark). With UNSTRUCTURED_API_URL set, PDF, DOCX,
// PPTX and images go to the Unstructured partition API instead of the local
// parsers. Heavy parsers are imported on first use.
import { chunkDocument, type Chunk } from '../chunking/chunker.ts';
import type { TokenCounter } from '../chunking/tokenizer.ts';
import { detectLanguage, languageOf, type TextSearchConfig } from '../search/language.ts';
import { IMAGE_TYPES, PLAIN_TEXT_TYPES } from './content-type.ts';
import { parsePlain } from './plain.ts';
import { parseMarkdown } from './markdown.ts';
import { parseHtml } from './html.ts';
import { parseCsv } from './csv.ts';
import { assertZipExpandsWithin } from './zip-bound.ts';
import { ParseError, type ParseOptions, type ParsedDocument } from './types.ts';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
const UNSTRUCTURED_TYPES = new Set(['application/pdf', DOCX, PPTX, ...IMAGE_TYPES]);

export async function parseBytes(bytes: Uint8Array, options: ParseOptions, counter: TokenCounter): Promise<ParsedDocument> {
  const type = options.contentType;
  if (options.unstructured && UNSTRUCTURED_TYPES.has(type)) {
    return (await import('./unstructured.ts')).parseWithUnstructured(bytes, options);
  }
  if (type === 'application/pdf') return (await import('./pdf.ts')).parsePdf(bytes, options);
  if (type === DOCX || type === PPTX) assertZipExpandsWithin(bytes, options.maxExpandedBytes, 'a quarter of INGESTION_PARSER_MAX_MEMORY_MB');
  if (type === DOCX) return (await import('./docx.ts')).parseDocx(bytes);
  if (type === PPTX) return (await import('./pptx.ts')).parsePptx(bytes);
  if (IMAGE_TYPES.has(type)) return (await import('./image.ts')).parseImage(bytes, options);
  if (type === 'text/html') return parseHtml(bytes);
  if (type === 'text/markdown') return parseMarkdown(bytes);
  if (type === 'text/csv') return parseCsv(bytes, counter, options.chunkSize);
  if (PLAIN_TEXT_TYPES.has(type)) return parsePlain(bytes);
  throw new ParseError(`Unsupported content type ${type}`);
}

export interface ChunkWithLanguage extends Chunk {
  tsConfig: TextSearchConfig;
}

/** Chunks, each with the text-search configuration of its language (the document's when it has too few words to tell). */
export function chunkParsed(parsed: ParsedDocument, counter: TokenCounter, size: number, overlap: number): { chunks: ChunkWithLanguage[]; language: TextSearchConfig } {
  const documentLanguage = detectLanguage(parsed.text) ?? 'english';
  const chunks = chunkDocument(parsed.text, parsed.segments, counter, { size, overlap });
  return { chunks: chunks.map((chunk) => ({ ...chunk, tsConfig: languageOf(chunk.text, documentLanguage) })), language: documentLanguage };
}
