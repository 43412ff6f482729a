// What every parser returns: the revision's text, its pages and sections
// (character offsets into that text), and the segments the chunker packs.
// A chunk never crosses a segment, so it keeps one page and one section.
import type { ChunkKind, PageInfo, SectionInfo } from '../store/tables.ts';

export interface Segment {
  start: number;
  end: number;
  page: number;
  section: string | null;
  kind: ChunkKind;
  /** Kept whole when it fits one chunk (a CSV row group with its header). */
  atomic?: boolean;
}

export interface PageImage {
  page: number;
  kind: PageInfo['kind'];
  png: Uint8Array;
}

export interface ParsedDocument {
  /** Which parser produced it (pdfjs, mammoth, unstructured, ...). */
  parser: string;
  text: string;
  pages: PageInfo[];
  sections: SectionInfo[];
  segments: Segment[];
  /** Pages counted by the format (PDF pages, slides); 0 for formats without pages. */
  pageCount: number;
  /** Rendered pages kept for vision descriptions and page-image retrieval. */
  images: PageImage[];
  warnings: string[];
}

/** What a parser may use besides the bytes. */
export interface ParseOptions {
  contentType: string;
  filename: string;
  ocrEnabled: boolean;
  ocrLangPath: string;
  ocrLanguages: string;
  pageImageDpi: number;
  maxRenderPages: number;
  /** Keep page images of drawing pages (vision descriptions) up to this many. */
  keepDrawingImages: number;
  /** Keep every rendered page image (page-image retrieval). */
  keepAllImages: boolean;
  /** Rows of a CSV group: the parser sizes groups to about this many tokens. */
  chunkSize: number;
  unstructured?: { url: string; apiKey?: string; strategy: string };
  /** Most bytes a zip-based document (DOCX, PPTX) may expand to before its parser runs (zip-bound.ts). */
  maxExpandedBytes: number;
  /** Aborted when the parse stage times out: long parsers check it between pages. */
  signal?: AbortSignal;
}

/** A document the parser cannot read (corrupt, encrypted, empty): fatal, not retried. */
export class ParseError extends Error {
  override name = 'ParseError';
}

/** Builds text, pages, sections and segments incrementally with consistent offsets. */
export class TextBuilder {
  text = '';
  readonly pages: PageInfo[] = [];
  readonly sections: SectionInfo[] = [];
  readonly segments: Segment[] = [];

  /** Appends text, separated from what is before by a blank line; returns its offsets. */
  append(part: string, separator = '\n\n'): { start: number; end: number } {
    if (this.text.length > 0 && part.length > 0) this.text += separator;
    const start = this.text.length;
    this.text += part;
    return { start, end: this.text.length };
  }

  segment(start: number, end: number, page: number, section: string | null, kind: ChunkKind = 'text', atomic = false): void {
    if (end > start && this.text.slice(start, end).trim() !== '') this.segments.push({ start, end, page, section, kind, atomic });
  }

  /** Closes the previous section at `start` and opens a new one. */
  openSection(title: string, level: number, page: number, start: number): void {
    const previous = this.sections.at(-1);
    if (previous && previous.char_end < 0) previous.char_end = start;
    this.sections.push({ title, level, page, char_start: start, char_end: -1 });
  }

  finish(parser: string, pageCount: number, extra: Partial<ParsedDocument> = {}): ParsedDocument {
    const last = this.sections.at(-1);
    if (last && last.char_end < 0) last.char_end = this.text.length;
    return {
      parser, text: this.text, pages: this.pages, sections: this.sections, segments: this.segments,
      pageCount, images: [], warnings: [], ...extra,
    };
  }
}
