// The verdict on one citation, from the cited chunk as it is now, the quote
// and whether the citing context had been shown the chunk. Pure: the service
// reads the inputs in its transaction and writes the result.
//
//   status              when
//   out_of_provenance   the context was never shown the chunk (the match is still computed and kept)
//   unverified          no quote to check, and the chunk exists
//   verified            the quote matched (exact, normalized or fuzzy)
//   failed              the quote did not match, or the chunk at the cited revision no longer exists
import type { ChunkRecord } from '../../ingestion/api.ts';
import type { MatchType, VerificationStatus } from '../api.ts';
import { matchQuote } from './matcher.ts';

export interface VerdictInput {
  /** The chunk as the ingestion API returns it now; undefined when it no longer exists. */
  chunk: Pick<ChunkRecord, 'revision_id' | 'text'> | undefined;
  /** The revision the citation names: a chunk of another revision is not the cited one. */
  revisionId: string;
  quote: string | null;
  /** Null where provenance does not apply (a direct function call). */
  shown: boolean | null;
}

export interface Verdict {
  verification_status: VerificationStatus;
  match_type: MatchType | null;
  match_score: number | null;
  matched_span_start: number | null;
  matched_span_end: number | null;
  /** Whether a verification took place (verified_at is set, citationVerified is pushed). */
  checked: boolean;
}

export function verdict({ chunk, revisionId, quote, shown }: VerdictInput): Verdict {
  const available = chunk !== undefined && chunk.revision_id === revisionId;
  let match: { match_type: MatchType; score: number; start: number | null; end: number | null } | null = null;
  if (!available) match = { match_type: 'not_found', score: 0, start: null, end: null };
  else if (quote !== null) match = matchQuote(chunk.text, quote);
  const status: VerificationStatus = shown === false ? 'out_of_provenance'
    : match === null ? 'unverified'
      : match.match_type === 'not_found' ? 'failed' : 'verified';
  return {
    verification_status: status,
    match_type: match?.match_type ?? null,
    match_score: match?.score ?? null,
    matched_span_start: match?.start ?? null,
    matched_span_end: match?.end ?? null,
    checked: match !== null,
  };
}
