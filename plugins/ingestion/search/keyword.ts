// Keyword retrieval: Postgres full text over the live chunks, each chunk
// matched with the text-search configuration of its language (English or
// Portuguese stemming), query words ranked by ts_rank_cd, all of them (AND)
// first, then any (OR). A query word the tenant's text never contains is
// widened to its nearest vocabulary words by trigram similarity (pg_trgm), so
// a typo still finds its word. The queries are in store/search.ts.
import type { TenantTransaction } from 'agent-platform/sdk';
import { searchStore } from '../store/search.ts';

type Trx = TenantTransaction;

/** Letters and digits only: safe to place in a tsquery. */
export function queryWords(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, 32);
}

/** Trigram similarity a vocabulary word needs to stand in for a query word, and how many may. */
const FUZZY_THRESHOLD = 0.45;
const FUZZY_PER_WORD = 2;

/** For each query word absent from the vocabulary, up to two similar vocabulary words (word → its alternatives). */
export async function fuzzyExpansions(trx: Trx, words: string[]): Promise<Map<string, string[]>> {
  const candidates = words.filter((word) => word.length >= 4 && !/^\d+$/.test(word));
  const expansions = new Map<string, string[]>();
  if (candidates.length === 0) return expansions;
  for (const row of await searchStore.fuzzyTerms(trx, candidates, FUZZY_THRESHOLD, FUZZY_PER_WORD)) {
    // Only letters and digits go into a tsquery.
    if (!/^[\p{L}\p{N}]+$/u.test(row.term)) continue;
    expansions.set(row.word, [...(expansions.get(row.word) ?? []), row.term]);
  }
  return expansions;
}

/**
 * Matches ranked per query: at most this many matches are ranked (ts_rank_cd
 * reads every matching row's tsvector; a query of common words matches a
 * large part of a corpus, and ranking all of it is what makes plain full text
 * slow at 100k chunks). The AND query runs first, so the ranked matches are
 * the precise ones; the OR query only fills up when they are too few, from
 * the first 1000 rows that match any word (3000 cost 25 ms more per query at
 * 100k chunks for no better ranking: past the AND matches the sample is
 * arbitrary either way).
 */
const MAX_RANKED_MATCHES = 1000;

async function ranked(trx: Trx, tsquery: string, collectionIds: number[] | undefined, limit: number, exclude: Set<string>): Promise<string[]> {
  const ids = await searchStore.keywordCandidates(trx, tsquery, collectionIds, MAX_RANKED_MATCHES, limit + exclude.size);
  return ids.filter((id) => !exclude.has(id)).slice(0, limit);
}

/** Chunk ids, best first. Each group is a query word with its fuzzy alternatives: all groups (AND) first, then any word (OR). */
export async function keywordRanked(trx: Trx, groups: string[][], collectionIds: number[] | undefined, limit: number): Promise<string[]> {
  const words = groups.flat();
  if (words.length === 0) return [];
  const all = groups.map((group) => (group.length === 1 ? group[0] : `(${group.join(' | ')})`)).join(' & ');
  const strict = await ranked(trx, all, collectionIds, limit, new Set());
  if (strict.length >= limit || groups.length === 1) return strict;
  const loose = await ranked(trx, words.join(' | '), collectionIds, limit - strict.length, new Set(strict));
  return [...strict, ...loose];
}
