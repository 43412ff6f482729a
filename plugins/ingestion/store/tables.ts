// kysely types of the ingestion tables (sql/0001_init.sql), added to the
// core Database interface by declaration merging.
import type { ColumnType, Generated } from 'kysely';

/** jsonb: read as the value, written as its JSON text. */
type Json<T> = ColumnType<T, string | undefined, string>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export type IngestionStatus = 'pending' | 'ingesting' | 'ready' | 'error';
export type Stage = 'validate' | 'create_revision' | 'parse_and_chunk' | 'enrich' | 'finalize' | 'done';
export type PageKind = 'text' | 'drawing' | 'table';
export type ChunkKind = 'text' | 'ocr' | 'table' | 'vision';

export interface PageInfo {
  page: number;
  char_start: number;
  char_end: number;
  kind: PageKind;
  /** The page's text came from OCR (it had no text layer). */
  ocr: boolean;
  /** Rendered to an image (within MAX_RENDER_PAGES). */
  rendered: boolean;
}

export interface SectionInfo {
  title: string;
  level: number;
  page: number;
  char_start: number;
  char_end: number;
}

export interface CollectionsTable {
  id: Generated<number>;
  tenant_id: string;
  parent_id: Nullable<number>;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  metadata: Json<Record<string, unknown>>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The execution context a private collection belongs to (`chat_session:<id>`); null for the tenant's own collections. */
  scope: Nullable<string>;
}

export interface SyncSourcesTable {
  id: Generated<number>;
  tenant_id: string;
  name: string;
  kind: 'directory' | 'urls';
  collection_id: number;
  directory: Nullable<string>;
  pattern: Nullable<string>;
  recursive: ColumnType<boolean, boolean | undefined, boolean>;
  urls: ColumnType<string[] | null, string | null | undefined, string | null>;
  schedule: Nullable<string>;
  timezone: ColumnType<string, string | undefined, string>;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  last_sync_started_at: NullableTimestamp;
  last_sync_at: NullableTimestamp;
  last_sync_status: Nullable<'running' | 'succeeded' | 'partial' | 'failed'>;
  last_sync_stats: ColumnType<Record<string, number> | null, string | null | undefined, string | null>;
  last_sync_errors: Json<{ item: string; error: string }[]>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BlobsTable {
  tenant_id: string;
  content_hash: string;
  size_bytes: number;
  bytes: Buffer;
  created_at: Timestamp;
}

export interface DocumentsTable {
  id: Generated<string>;
  tenant_id: string;
  collection_id: number;
  source_id: Nullable<number>;
  source_key: Nullable<string>;
  name: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  content_hash: string;
  metadata: Json<Record<string, unknown>>;
  page_count: Nullable<number>;
  ingestion_status: ColumnType<IngestionStatus, IngestionStatus | undefined, IngestionStatus>;
  stage: Nullable<Stage>;
  progress_pct: ColumnType<number, number | undefined, number>;
  error: Nullable<string>;
  run_id: Nullable<string>;
  run_revision_id: Nullable<string>;
  latest_revision_id: Nullable<string>;
  chunk_count: ColumnType<number, number | undefined, number>;
  runs: ColumnType<number, number | undefined, number>;
  started_at: NullableTimestamp;
  completed_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RevisionsTable {
  id: Generated<string>;
  tenant_id: string;
  document_id: string;
  revision_number: number;
  status: ColumnType<'building' | 'ready' | 'failed', 'building' | 'ready' | 'failed' | undefined, 'building' | 'ready' | 'failed'>;
  content_hash: string;
  content_type: string;
  size_bytes: number;
  parser: Nullable<string>;
  language: Nullable<string>;
  text: Nullable<string>;
  pages: Json<PageInfo[]>;
  sections: Json<SectionInfo[]>;
  page_count: Nullable<number>;
  warnings: Json<string[]>;
  enrichment: Json<Record<string, unknown>>;
  error: Nullable<string>;
  created_at: Timestamp;
  completed_at: NullableTimestamp;
}

export interface ChunksTable {
  id: Generated<string>;
  tenant_id: string;
  revision_id: string;
  document_id: string;
  collection_id: number;
  ordinal: number;
  kind: ColumnType<ChunkKind, ChunkKind | undefined, ChunkKind>;
  text: string;
  page: number;
  section: Nullable<string>;
  char_start: number;
  char_end: number;
  token_count: number;
  ts_config: string;
  tsv: ColumnType<string, never, never>;
  is_current: ColumnType<boolean, boolean | undefined, boolean>;
  embedding: Nullable<string>;
  embedding_dims: Nullable<number>;
  embedding_model: Nullable<string>;
  created_at: Timestamp;
}

export interface PageImagesTable {
  tenant_id: string;
  revision_id: string;
  document_id: string;
  collection_id: number;
  page: number;
  kind: PageKind;
  png: Buffer;
  is_current: ColumnType<boolean, boolean | undefined, boolean>;
  embedding: Nullable<string>;
  embedding_dims: Nullable<number>;
  embedding_model: Nullable<string>;
}

export interface TermsTable {
  tenant_id: string;
  term: string;
}

export interface TenantStateTable {
  tenant_id: string;
  touched_at: Timestamp;
}

export interface QuotaSlotsTable {
  tenant_id: string;
  document_id: string;
  run_id: string;
  acquired_at: Timestamp;
}

declare module 'agent-platform/sdk' {
  interface Database {
    ingestion_collections: CollectionsTable;
    ingestion_sync_sources: SyncSourcesTable;
    ingestion_blobs: BlobsTable;
    ingestion_documents: DocumentsTable;
    ingestion_revisions: RevisionsTable;
    ingestion_chunks: ChunksTable;
    ingestion_page_images: PageImagesTable;
    ingestion_terms: TermsTable;
    ingestion_tenant_state: TenantStateTable;
    ingestion_quota_slots: QuotaSlotsTable;
  }
}
