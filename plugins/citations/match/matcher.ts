// Verifies a quoted passage against the text of the cited chunk, trying the
// cheapest test first:
//   exact       the quote occurs verbatim                          score 1.0
//   normalized  it occurs once whitespace runs are collapsed       score 1.0
//   fuzzy       the closest window is more than 85% similar        score = that similarity
//   not_found   nothing is                                         score = the best similarity seen
// Spans are offsets into the chunk text as indexed (UTF-16 code units, so
// `text.slice(start, end)` is the matched passage); for a normalized or fuzzy
// match they are mapped back from the normalized text.
import type { MatchType } from '../api.ts';
import { collapseWhitespace, isWhitespace, normalizeWhitespace, type NormalizedText } from './normalize.ts';
import { bestWindow } from './myers.ts';

/** A fuzzy match needs a similarity above this (strictly). */
export const FUZZY_THRESHOLD = 0.85;

export interface QuoteMatch {
  match_type: MatchType;
  /** 1 for exact and normalized; the similarity for fuzzy and not_found (0 when nothing was comparable). */
  score: number;
  start: number | null;
  end: number | null;
}

/** Original offsets of the normalized span [start, end), without spaces at its edges. */
function mapSpan(normalized: NormalizedText, start: number, end: number): { start: number; end: number } {
  let first = start;
  let last = end - 1;
  while (first < last && normalized.text.charCodeAt(first) === 32) first += 1;
  while (last > first && normalized.text.charCodeAt(last) === 32) last -= 1;
  return { start: normalized.offsets[first], end: normalized.offsets[last] + 1 };
}

function isBlank(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) if (!isWhitespace(value.charCodeAt(i))) return false;
  return true;
}

export function matchQuote(text: string, quote: string): QuoteMatch {
  // A blank quote quotes nothing (it would otherwise be found in any spacing).
  if (isBlank(quote)) return { match_type: 'not_found', score: 0, start: null, end: null };
  const at = text.indexOf(quote);
  if (at >= 0) return { match_type: 'exact', score: 1, start: at, end: at + quote.length };
  const wanted = collapseWhitespace(quote);
  const normalized = normalizeWhitespace(text);
  const found = normalized.text.indexOf(wanted);
  if (found >= 0) return { match_type: 'normalized', score: 1, ...mapSpan(normalized, found, found + wanted.length) };

  const window = bestWindow(wanted, normalized.text);
  if (!window) return { match_type: 'not_found', score: 0, start: null, end: null };
  const similarity = Math.max(0, 1 - window.distance / Math.max(wanted.length, window.end - window.start));
  if (similarity > FUZZY_THRESHOLD) {
    return { match_type: 'fuzzy', score: similarity, ...mapSpan(normalized, window.start, window.end) };
  }
  return { match_type: 'not_found', score: similarity, start: null, end: null };
}
