// What the ingestion plugin exposes to other plugins (register's `ingestion` dependency).
// The citations plugin reads chunks through it (a citation outlives its
// document: it keeps a snapshot of the name, and reads the chunk text of the
// cited revision, which stays after a reingest); the chat plugin's offline
// responder searches through it. Every call but the GraphQL nodes runs in the
// caller's tenant transaction (withTenant), so row-level security applies; the
// nodes (collectionNode, revisionNode) give other plugins' GraphQL fields
// ingestion's own `Collection` and `DocumentRevision` objects.
import type { GraphqlContext, TenantTransaction } from 'agent-platform/sdk';

/** A chunk as it was indexed, at its revision. */
export interface ChunkRecord {
  chunk_id: string;
  revision_id: string;
  /** The revision's number for its document (1, 2, …). */
  revision_number: number;
  document_id: string;
  /** The document's current name (its filename unless renamed). */
  document_name: string;
  collection_id: number;
  /** The chunk's text exactly as indexed: citation offsets are into this string. */
  text: string;
  /** 1-based page; 0 for formats without pages (JSON, YAML, XML, plain text). */
  page: number;
  section: string | null;
  /** Character offsets of the chunk in its revision's text. */
  char_start: number;
  char_end: number;
  /** The document was deleted (its revisions and chunks are kept for citations). */
  document_deleted: boolean;
  /** This chunk belongs to the document's latest successful revision. */
  is_latest_revision: boolean;
}

export interface SearchRequest {
  query: string;
  collection_ids?: number[];
  /** Include the sub-collections of collection_ids (default true). */
  include_descendants?: boolean;
  top_k?: number;
  /**
   * The execution context searching, as `<type>:<id>` of its
   * executionContext (`chat_session:<session id>`): its private collection is
   * searched too. Other contexts' private collections never are.
   */
  scope?: string;
}

/** An upload checked before any transaction (size, type from the bytes): PrivateUploads.prepare. */
export interface PreparedUpload {
  bytes: Buffer;
  filename: string;
  contentType: string;
  hash: string;
}

/** A document stored in a private collection. */
export interface PrivateDocument {
  collection_id: number;
  document_id: string;
  filename: string;
  content_type: string;
  ingestion_status: string;
}

/**
 * Collections private to one execution context (embed uploads: one chat
 * session). Never listed to the tenant's surfaces, searched only from their
 * context, deleted with it.
 */
export interface PrivateUploads {
  /** Checks bytes and type as every upload (413 over INGESTION_MAX_DOC_SIZE, 415 unsupported, 400 empty); no transaction. */
  prepare(input: { bytes: Buffer; filename: string }): Promise<PreparedUpload>;
  /** Stores the upload in the scope's collection (created on first use) and starts its ingestion (429 over the tenant's quota). */
  store(trx: TenantTransaction, tenantId: string, scope: string, upload: PreparedUpload): Promise<PrivateDocument>;
  /** Deletes the scope's collection and its documents for good; returns how many documents went. */
  deleteScope(trx: TenantTransaction, tenantId: string, scope: string): Promise<number>;
}
export interface SearchHit {
  chunk_id: string;
  revision_id: string;
  document_id: string;
  doc_name: string;
  collection_id: number;
  page: number;
  section: string | null;
  score: number;
  text: string;
}

export interface DocumentSummary {
  document_id: string;
  name: string;
  collection_id: number;
  content_type: string;
  ingestion_status: 'pending' | 'ingesting' | 'ready' | 'error';
  deleted: boolean;
}

export interface IngestionApi {
  /** One chunk by id, at whatever revision it belongs to (deleted documents included). */
  getChunk(trx: TenantTransaction, chunkId: string): Promise<ChunkRecord | undefined>;
  /** Several chunks in one query (DataLoader batches); missing ids are left out. */
  getChunks(trx: TenantTransaction, chunkIds: readonly string[]): Promise<ChunkRecord[]>;
  /** A document by id (deleted documents included, with deleted: true). */
  getDocument(trx: TenantTransaction, documentId: string): Promise<DocumentSummary | undefined>;
  /** Hybrid search over the latest successful revisions of documents not deleted. */
  search(trx: TenantTransaction, request: SearchRequest): Promise<SearchHit[]>;
  privateUploads: PrivateUploads;
  /**
   * For another plugin's GraphQL field of type `Collection`: the tenant's
   * collection as ingestion's resolvers read it (batched per request), or null
   * when absent (or private to an execution context). Guarded as GET
   * /api/admin/collections: a member of the tenant, FORBIDDEN for an API key.
   * Opaque: return it as the field's value.
   */
  collectionNode(context: GraphqlContext, tenantId: string, collectionId: number): Promise<GraphqlNode | null>;
  /**
   * For a GraphQL field of type `DocumentRevision`: a revision (of a deleted
   * document too: its revisions stay), batched per request, or null when
   * absent. Guarded as GET /api/admin/documents: a member of the tenant.
   */
  revisionNode(context: GraphqlContext, tenantId: string, revisionId: string): Promise<GraphqlNode | null>;
}

/** A value ingestion's own GraphQL types resolve; other plugins only pass it on. */
export type GraphqlNode = object;

declare module '@hapi/hapi' {
  interface PluginProperties {
    ingestion: { api: IngestionApi };
  }
}
