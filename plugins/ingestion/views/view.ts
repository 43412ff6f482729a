// How ingestion rows leave the service (REST and GraphQL read the same shapes).
import type { CollectionRow } from '../store/collections.ts';
import type { DocumentRow } from '../store/documents.ts';
import type { ChunkRow, RevisionSummary } from '../store/revisions.ts';

const iso = (value: Date | null | undefined) => (value ? new Date(value).toISOString() : null);

export function collectionView(row: NonNullable<CollectionRow>, documentCount?: number) {
  return {
    collection_id: row.id,
    parent_id: row.parent_id,
    name: row.name,
    description: row.description,
    metadata: row.metadata,
    ...(documentCount !== undefined ? { document_count: documentCount } : {}),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** The ingestion status of one document. */
export function statusView(row: DocumentRow) {
  return {
    document_id: row.id,
    ingestion_status: row.ingestion_status,
    stage: row.stage,
    progress_pct: row.progress_pct,
    chunk_count: row.chunk_count,
    // The revision being built while a run is in flight, else the latest successful one.
    revision_id: row.run_revision_id ?? row.latest_revision_id,
    error: row.error,
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
  };
}

export function documentView(row: DocumentRow) {
  return {
    document_id: row.id,
    collection_id: row.collection_id,
    source_id: row.source_id,
    name: row.name,
    filename: row.filename,
    content_type: row.content_type,
    size_bytes: Number(row.size_bytes),
    content_hash: row.content_hash,
    metadata: row.metadata,
    page_count: row.page_count,
    ingestion_status: row.ingestion_status,
    stage: row.stage,
    progress_pct: row.progress_pct,
    chunk_count: row.chunk_count,
    revision_id: row.run_revision_id ?? row.latest_revision_id,
    latest_revision_id: row.latest_revision_id,
    error: row.error,
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
    deleted: row.deleted_at !== null,
    deleted_at: iso(row.deleted_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function revisionView(row: RevisionSummary, latestRevisionId: string | null) {
  return {
    revision_id: row.id,
    revision_number: row.revision_number,
    status: row.status,
    is_latest: row.id === latestRevisionId,
    content_hash: row.content_hash,
    content_type: row.content_type,
    size_bytes: Number(row.size_bytes),
    parser: row.parser,
    language: row.language,
    page_count: row.page_count,
    warnings: row.warnings,
    enrichment: row.enrichment,
    error: row.error,
    created_at: iso(row.created_at),
    completed_at: iso(row.completed_at),
  };
}

export function chunkView(row: ChunkRow, revisionId: string) {
  return {
    chunk_id: row.id, revision_id: revisionId, ordinal: row.ordinal, kind: row.kind, text: row.text, page: row.page,
    section: row.section, char_start: row.char_start, char_end: row.char_end, token_count: row.token_count,
    language: row.ts_config, embedding_model: row.embedding_model,
  };
}
