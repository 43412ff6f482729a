// How a citation row is shown (REST, functions, the plugin API): the fields
// of the Citation contract, timestamps as ISO 8601 strings.
import type { Citation, CitationRecord } from '../api.ts';
import type { CitationRow } from '../store/tables.ts';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function citationView(row: CitationRow): Citation {
  return {
    id: row.id,
    chunk_id: row.chunk_id,
    revision_id: row.revision_id,
    document_id: row.document_id,
    collection_id: row.collection_id,
    document_name: row.document_name,
    tenant_id: row.tenant_id,
    execution_context_type: row.execution_context_type,
    execution_context_id: row.execution_context_id,
    quoted_text: row.quoted_text,
    page: row.page,
    section: row.section,
    verification_status: row.verification_status,
    match_type: row.match_type,
    match_score: row.match_score,
    matched_span_start: row.matched_span_start,
    matched_span_end: row.matched_span_end,
    verified_at: iso(row.verified_at),
    created_at: iso(row.created_at)!,
    client_id: row.client_id,
    verified_by_context_type: row.verified_by_context_type,
    verified_by_context_id: row.verified_by_context_id,
  };
}

/** The citation with the message it was made in (GraphQL, live pushes, the api's ofMessages). */
export function citationRecord(row: CitationRow): CitationRecord {
  return { ...citationView(row), message_id: row.message_id };
}

/** GET /api/chat/{session_id}/citation/{chunk_id}/{revision_id}/status. */
export function chatStatusView(row: CitationRow | undefined) {
  return {
    found: row !== undefined,
    verification_status: row?.verification_status ?? null,
    match_type: row?.match_type ?? null,
    match_score: row?.match_score ?? null,
    matched_span_start: row?.matched_span_start ?? null,
    matched_span_end: row?.matched_span_end ?? null,
    verified_at: row ? iso(row.verified_at) : null,
  };
}
