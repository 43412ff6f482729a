// parse_and_chunk's work outside any transaction: the parser under
// INGESTION_PARSE_TIMEOUT, then the chunker under INGESTION_CHUNK_TIMEOUT.
import { parseBytes, chunkParsed, type ChunkWithLanguage } from '../parsers/parse.ts';
import type { ParseOptions, ParsedDocument } from '../parsers/types.ts';
import type { TokenCounter } from '../chunking/tokenizer.ts';
import type { IngestionSettings } from '../config/settings.ts';
import { withTimeout } from './timeout.ts';
import type { ParserPool } from './parser-pool.ts';

/**
 * Parsing XML takes several times its size in heap (strings, the DOM, the
 * HTML mammoth builds), so a document may expand to a quarter of the parser
 * process's heap limit: past that it would exhaust the process anyway.
 */
export function expandedLimitOf(parserMaxMemoryMb: number): number {
  return Math.floor(parserMaxMemoryMb / 4) * 1024 * 1024;
}

export function parseOptionsOf(settings: IngestionSettings, contentType: string, filename: string): ParseOptions {
  return {
    contentType,
    filename,
    ocrEnabled: settings.ocrEnabled,
    ocrLangPath: settings.ocrLangPath,
    ocrLanguages: settings.ocrLanguages,
    pageImageDpi: settings.pageImageDpi,
    maxRenderPages: settings.maxRenderPages,
    keepDrawingImages: settings.vlm.enabled ? settings.vlm.maxDrawingPages : 0,
    // Page-image retrieval renders and keeps every page (up to MAX_RENDER_PAGES)
    // to embed it; otherwise only pages whose text layer cannot tell are rendered.
    keepAllImages: settings.visionRetrieval.active,
    chunkSize: settings.chunkSize,
    maxExpandedBytes: expandedLimitOf(settings.parserMaxMemoryMb),
    unstructured: settings.unstructured.url
      ? { url: settings.unstructured.url, apiKey: settings.unstructured.apiKey, strategy: settings.unstructured.strategy }
      : undefined,
  };
}

export interface ParseResult {
  parsed: ParsedDocument;
  chunks: ChunkWithLanguage[];
  language: string;
}

/** In a parser process of the pool (the server's way: a stuck parser is killed at its timeout, one out of memory fails alone). */
export function parseAndChunkInPool(pool: ParserPool, bytes: Uint8Array, options: ParseOptions, settings: IngestionSettings): Promise<ParseResult> {
  const { signal: _signal, ...portable } = options;
  return pool.run(
    { bytes: new Uint8Array(bytes), options: portable, tokenizer: settings.tokenizer, chunkSize: settings.chunkSize, chunkOverlap: settings.chunkOverlap },
    { parse: settings.parseTimeoutSeconds, chunk: settings.chunkTimeoutSeconds },
  );
}

/** In this thread (benchmarks, tools): timeouts abort between pages only. */
export async function parseAndChunk(bytes: Uint8Array, options: ParseOptions, settings: IngestionSettings, counter: TokenCounter, signal?: AbortSignal): Promise<ParseResult> {
  const parsed = await withTimeout(settings.parseTimeoutSeconds, 'parse', (inner) => parseBytes(bytes, { ...options, signal: inner }, counter), signal);
  const { chunks, language } = await withTimeout(settings.chunkTimeoutSeconds, 'chunking', async () =>
    chunkParsed(parsed, counter, settings.chunkSize, settings.chunkOverlap), signal);
  return { parsed, chunks, language };
}
