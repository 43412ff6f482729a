// Splits a parsed document into chunks of at most INGESTION_CHUNK_SIZE tokens
// with INGESTION_CHUNK_OVERLAP tokens of overlap, counted with the configured
// encoding. A chunk is always an exact span of the revision text (citations
// point into it by character offsets), lies inside one segment (one page, one
// section), and starts and ends on word boundaries: a break is moved back to
// the end of a paragraph or sentence when one is near. Only a single "word"
// longer than a whole chunk (a long URL, a base64 blob) is cut inside.
import type { ChunkKind } from '../store/tables.ts';
import type { Segment } from '../parsers/types.ts';
import type { TokenCounter } from './tokenizer.ts';

export interface Chunk {
  text: string;
  start: number;
  end: number;
  page: number;
  section: string | null;
  kind: ChunkKind;
  tokens: number;
}

export interface ChunkOptions {
  size: number;
  overlap: number;
  /** Checked between segments: chunking a huge document yields to the timeout. */
  signal?: AbortSignal;
}

interface Word {
  start: number;
  end: number;
  tokens: number;
  /** A paragraph or sentence ends after this word: a good place to break. */
  boundary: 0 | 1 | 2;
}

const WORD = /\S+/g;

function wordsOf(text: string, from: number, to: number, counter: TokenCounter, size: number): Word[] {
  const words: Word[] = [];
  const slice = text.slice(from, to);
  WORD.lastIndex = 0;
  for (let match = WORD.exec(slice); match; match = WORD.exec(slice)) {
    const start = from + match.index;
    const end = start + match[0].length;
    const tokens = counter.word(match[0]);
    if (tokens > size) {
      words.push(...cutLongWord(text, start, end, counter, size));
      continue;
    }
    words.push({ start, end, tokens, boundary: 0 });
  }
  for (let i = 0; i < words.length; i++) {
    const gap = text.slice(words[i].end, words[i + 1]?.start ?? to);
    const last = text[words[i].end - 1];
    // A newline in the gap costs a token of its own in BPE encodings.
    if (gap.includes('\n')) words[i].tokens += 1;
    words[i].boundary = /\n\s*\n/.test(gap) ? 2 : (/[.!?;:]/.test(last) || gap.includes('\n')) ? 1 : 0;
  }
  return words;
}

/** A word longer than a chunk: cut into pieces of at most `size` tokens (the only cut inside a word). */
function cutLongWord(text: string, start: number, end: number, counter: TokenCounter, size: number): Word[] {
  const pieces: Word[] = [];
  let at = start;
  while (at < end) {
    let length = Math.min(end - at, size * 2);
    while (length > 1 && counter.count(text.slice(at, at + length)) > size) length = Math.floor(length * 0.8);
    pieces.push({ start: at, end: at + length, tokens: counter.count(text.slice(at, at + length)), boundary: 0 });
    at += length;
  }
  return pieces;
}

function pack(text: string, segment: Segment, words: Word[], counter: TokenCounter, options: ChunkOptions): Chunk[] {
  const chunks: Chunk[] = [];
  let first = 0;
  while (first < words.length) {
    let tokens = 0;
    let last = first;
    while (last < words.length && tokens + words[last].tokens <= options.size) tokens += words[last++].tokens;
    if (last === first) last = first + 1; // a word at the limit with its newline: alone in its chunk
    // last is exclusive. Move the break back to a paragraph or sentence end within the last quarter.
    if (last < words.length) {
      const floor = first + Math.max(1, Math.floor((last - first) * 0.75));
      for (const strength of [2, 1] as const) {
        const found = findBoundary(words, floor, last, strength);
        if (found !== undefined) {
          last = found + 1;
          break;
        }
      }
    }
    let chunk = makeChunk(text, segment, words, first, last, counter);
    // The per-word count is an estimate of the encoding of the whole span: trim if it overshot.
    while (chunk.tokens > options.size && last - first > 1) chunk = makeChunk(text, segment, words, first, --last, counter);
    chunks.push(chunk);
    if (last >= words.length) break;
    // Step back over the overlap, but always move forward.
    let next = last;
    let overlap = 0;
    while (next > first + 1 && overlap + words[next - 1].tokens <= options.overlap) overlap += words[--next].tokens;
    first = next;
  }
  return chunks;
}

function findBoundary(words: Word[], from: number, to: number, strength: 1 | 2): number | undefined {
  for (let i = to - 1; i >= from; i--) if (words[i].boundary >= strength) return i;
  return undefined;
}

function makeChunk(text: string, segment: Segment, words: Word[], first: number, last: number, counter: TokenCounter): Chunk {
  const start = words[first].start;
  const end = words[last - 1].end;
  const body = text.slice(start, end);
  return { text: body, start, end, page: segment.page, section: segment.section, kind: segment.kind, tokens: counter.count(body) };
}

export function chunkDocument(text: string, segments: Segment[], counter: TokenCounter, options: ChunkOptions): Chunk[] {
  const chunks: Chunk[] = [];
  for (const segment of segments) {
    options.signal?.throwIfAborted();
    const words = wordsOf(text, segment.start, segment.end, counter, options.size);
    if (words.length === 0) continue;
    if (segment.atomic) {
      const whole = makeChunk(text, segment, words, 0, words.length, counter);
      if (whole.tokens <= options.size) {
        chunks.push(whole);
        continue;
      }
    }
    chunks.push(...pack(text, segment, words, counter, options));
  }
  return chunks;
}
