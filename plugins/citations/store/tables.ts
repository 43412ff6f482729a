// kysely types of the citations tables (sql/), added to the
// core Database interface by declaration merging.
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { MatchType, VerificationStatus } from '../api.ts';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface CitationsTable {
  id: Generated<string>;
  tenant_id: string;
  seq: ColumnType<number, never, never>;
  chunk_id: string;
  revision_id: string;
  document_id: Nullable<string>;
  collection_id: Nullable<number>;
  document_name: string;
  execution_context_type: string;
  execution_context_id: string;
  client_id: Nullable<number>;
  quoted_text: Nullable<string>;
  page: Nullable<number>;
  section: Nullable<string>;
  shown_to_context: Nullable<boolean>;
  verification_status: VerificationStatus;
  match_type: Nullable<MatchType>;
  match_score: Nullable<number>;
  matched_span_start: Nullable<number>;
  matched_span_end: Nullable<number>;
  verified_at: Nullable<Date>;
  verified_by_context_type: Nullable<string>;
  verified_by_context_id: Nullable<string>;
  /** The message the citation was made in (a chat answer), when known. */
  message_id: Nullable<number>;
  created_at: CreatedAt;
}

export interface CitationProvenanceTable {
  tenant_id: string;
  context_type: string;
  context_id: string;
  chunk_id: string;
  revision_id: string;
  function_name: string;
  first_shown_at: CreatedAt;
}

declare module 'agent-platform/sdk' {
  interface Database {
    citations: CitationsTable;
    citation_provenance: CitationProvenanceTable;
  }
}

export type CitationRow = Selectable<CitationsTable>;
