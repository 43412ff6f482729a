// Building citation rows: the snapshot of the cited chunk's document, the
// creating context, and the verdict's columns. Shared by resolve, the reply
// resolver and the verification job.
import { sql } from 'kysely';
import type { ChunkRecord } from '../../ingestion/api.ts';
import type { CitationEntry, ExecutionContext, VerificationStatus } from '../api.ts';
import type { NewCitation, VerificationUpdate } from './citations.ts';
import type { Verdict } from '../match/verification.ts';

/** What a citation keeps of its source: the chunk as it is now, or what the citing reply claimed when the chunk is gone. */
export function snapshotOf(chunk: ChunkRecord | undefined, claimed?: Pick<CitationEntry, 'doc_name' | 'page' | 'section'>) {
  return {
    document_id: chunk?.document_id ?? null,
    collection_id: chunk?.collection_id ?? null,
    document_name: chunk?.document_name ?? claimed?.doc_name ?? '',
    page: chunk?.page ?? claimed?.page ?? null,
    section: chunk?.section ?? claimed?.section ?? null,
  };
}

export function contextColumns(context: ExecutionContext) {
  return {
    execution_context_type: context.type,
    execution_context_id: context.id,
    client_id: context.client_id ?? null,
  };
}

/** The verdict as columns; verified_at and verified_by are set only when a check took place. */
export function verdictColumns(result: Verdict, verifier: ExecutionContext): VerificationUpdate & { verification_status: VerificationStatus } {
  return {
    verification_status: result.verification_status,
    match_type: result.match_type,
    match_score: result.match_score,
    matched_span_start: result.matched_span_start,
    matched_span_end: result.matched_span_end,
    verified_at: result.checked ? (sql<Date>`now()` as never) : null,
    verified_by_context_type: result.checked ? verifier.type : null,
    verified_by_context_id: result.checked ? verifier.id : null,
  };
}

export type { NewCitation };
