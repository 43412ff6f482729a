// With UNSTRUCTURED_API_URL set, PDF, DOCX, PPTX and images are partitioned by
// an Unstructured API server (unstructured-client, POST /general/v0/general):
// its elements become the text (Title elements open sections; page numbers
// from element metadata; Table elements are table chunks). Page splitting of
// the client is off: the server gets the whole file once.
import { UnstructuredClient } from 'unstructured-client';
import { ParseError, TextBuilder, type ParseOptions, type ParsedDocument } from './types.ts';

interface Element {
  type?: string;
  text?: string;
  metadata?: { page_number?: number; category_depth?: number };
}

export async function parseWithUnstructured(bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
  const unstructured = options.unstructured!;
  const client = new UnstructuredClient({
    serverURL: unstructured.url,
    security: { apiKeyAuth: unstructured.apiKey ?? '' },
    retryConfig: { strategy: 'none' },
  });
  let elements: Element[];
  try {
    const response = await client.general.partition({
      partitionParameters: {
        files: { content: new Uint8Array(bytes), fileName: options.filename },
        strategy: unstructured.strategy as never,
        splitPdfPage: false,
        languages: options.ocrLanguages.split(/[+,\s]+/).filter(Boolean),
      },
    }, { fetchOptions: { signal: options.signal } } as never);
    elements = (typeof response === 'string' ? JSON.parse(response) : response) as Element[];
  } catch (err) {
    throw new Error(`Unstructured API failed: ${(err as Error).message}`);
  }
  if (!Array.isArray(elements)) throw new ParseError('The Unstructured API returned no elements');
  const builder = new TextBuilder();
  const pages = new Map<number, { start: number; end: number }>();
  let section: string | null = null;
  for (const element of elements) {
    const text = (element.text ?? '').trim();
    if (!text) continue;
    const page = element.metadata?.page_number ?? 1;
    const { start, end } = builder.append(text);
    if (element.type === 'Title') {
      section = text.slice(0, 200);
      builder.openSection(section, (element.metadata?.category_depth ?? 0) + 1, page, start);
    }
    builder.segment(start, end, page, section, element.type === 'Table' ? 'table' : 'text');
    const span = pages.get(page);
    pages.set(page, { start: span?.start ?? start, end });
  }
  if (builder.text.trim() === '') throw new ParseError('The Unstructured API found no text in the document');
  for (const [page, span] of [...pages].sort((a, b) => a[0] - b[0])) {
    builder.pages.push({ page, char_start: span.start, char_end: span.end, kind: 'text', ocr: false, rendered: false });
  }
  return builder.finish('unstructured', Math.max(0, ...pages.keys()));
}
