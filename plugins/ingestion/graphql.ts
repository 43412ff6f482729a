// GraphQL: collections, documents (by collection and status), one document
// with its revisions, chunks and status, and search. Resolvers call the
// services and rename the REST views to camelCase / UPPER_CASE here. Lists are
// Relay connections whose opaque cursor is the offset of the row. Access as
// in REST (GET /api/admin/collections, documents, chunks, search): a bearer
// member of the tenant, on every field that reads (nested ones included);
// API keys get FORBIDDEN.
import { badInput, type ConnectionArgs, decodeCursor, type GraphqlContext, isUuid, pageSize, requireMember, toConnection } from 'agent-platform/sdk';
import type { CollectionsService } from './services/collections.ts';
import type { DocumentsService } from './services/documents.ts';
import type { StatusService } from './services/status.ts';
import type { SearchService } from './services/search.ts';
import type { collectionView, documentView, statusView } from './views/view.ts';
import type { IngestionStatus } from './store/tables.ts';

type CollectionView = ReturnType<typeof collectionView>;
type DocumentView = ReturnType<typeof documentView>;
type StatusView = ReturnType<typeof statusView>;

export const typeDefs = /* GraphQL */ `
  enum IngestionStatus {
    PENDING
    INGESTING
    READY
    ERROR
  }

  "The ingestion status of a document."
  type DocumentIngestionStatus {
    ingestionStatus: IngestionStatus!
    stage: String
    progressPct: Int!
    chunkCount: Int!
    revisionId: String
    error: String
    startedAt: DateTime
    completedAt: DateTime
  }

  type IngestionErrorCount {
    reason: String!
    count: Int!
  }

  type IngestionCounts {
    pending: Int!
    ingesting: Int!
    ready: Int!
    error: Int!
    other: Int!
  }

  type CollectionIngestionStatus {
    total: Int!
    counts: IngestionCounts!
    drainRatePerMin: Float!
    drainWindowMinutes: Int!
    completedInWindow: Int!
    etaSeconds: Int
    topErrors: [IngestionErrorCount!]!
  }

  type Collection {
    id: Int!
    parentId: Int
    name: String!
    description: String!
    metadata: JSON!
    documentCount: Int!
    createdAt: DateTime!
    status(includeDescendants: Boolean = true, windowMinutes: Int = 60): CollectionIngestionStatus!
    documents(status: IngestionStatus, includeDescendants: Boolean = true, first: Int, after: String): DocumentConnection!
  }

  type CollectionEdge {
    node: Collection!
    cursor: String!
  }

  type CollectionConnection {
    edges: [CollectionEdge!]!
    pageInfo: PageInfo!
  }

  type DocumentRevision {
    id: String!
    revisionNumber: Int!
    status: String!
    isLatest: Boolean!
    contentHash: String!
    parser: String
    language: String
    pageCount: Int
    error: String
    createdAt: DateTime!
    completedAt: DateTime
  }

  type DocumentChunk {
    id: String!
    revisionId: String!
    ordinal: Int!
    kind: String!
    text: String!
    page: Int!
    section: String
    charStart: Int!
    charEnd: Int!
    tokenCount: Int!
  }

  type DocumentChunkEdge {
    node: DocumentChunk!
    cursor: String!
  }

  type DocumentChunkConnection {
    edges: [DocumentChunkEdge!]!
    pageInfo: PageInfo!
  }

  type Document {
    id: String!
    collectionId: Int!
    name: String!
    filename: String!
    contentType: String!
    sizeBytes: Float!
    pageCount: Int
    ingestionStatus: IngestionStatus!
    deleted: Boolean!
    createdAt: DateTime!
    status: DocumentIngestionStatus!
    revisions: [DocumentRevision!]!
    "Chunks of the latest successful revision, or of the revision with this number."
    chunks(revision: Int, first: Int, after: String): DocumentChunkConnection!
  }

  type DocumentEdge {
    node: Document!
    cursor: String!
  }

  type DocumentConnection {
    edges: [DocumentEdge!]!
    pageInfo: PageInfo!
  }

  type DocumentSearchHit {
    chunkId: String!
    revisionId: String!
    documentId: String!
    docName: String!
    collectionId: Int!
    page: Int!
    section: String
    score: Float!
    text: String!
  }

  extend type Query {
    collections(first: Int, after: String): CollectionConnection!
    documents(collection: Int, status: IngestionStatus, first: Int, after: String): DocumentConnection!
    document(id: String!): Document
    search(query: String!, collections: [Int!], topK: Int = 5): [DocumentSearchHit!]!
  }
`;

interface Services {
  collections: CollectionsService;
  documents: DocumentsService;
  status: StatusService;
  search: SearchService;
}

function offsetPage(args: ConnectionArgs) {
  const size = pageSize(args);
  const after = decodeCursor<number>(args.after);
  if (after !== undefined && (!Number.isInteger(after) || after < 0)) throw badInput('Malformed cursor');
  return { size, skip: after === undefined ? 0 : after + 1, hadCursor: after !== undefined };
}

function connection<T>(items: T[], skip: number, size: number, hadCursor: boolean) {
  const indexed = items.map((node, i) => ({ node, index: skip + i }));
  const result = toConnection(indexed, size, (row) => row.index, hadCursor);
  return { edges: result.edges.map((edge) => ({ node: edge.node.node, cursor: edge.cursor })), pageInfo: result.pageInfo };
}

const lower = (status: string | undefined | null) => (status ? (status.toLowerCase() as IngestionStatus) : undefined);

export function graphqlPart(services: Services) {
  const { collections, documents, status } = services;

  async function documentConnection(tenantId: string, filter: { collectionId?: number; status?: string | null; includeDescendants?: boolean }, args: ConnectionArgs) {
    const { size, skip, hadCursor } = offsetPage(args);
    const page = await documents.list(tenantId, {
      collectionId: filter.collectionId, includeDescendants: filter.includeDescendants ?? true, status: lower(filter.status),
    }, skip, size + 1);
    return connection(page.items, skip, size, hadCursor);
  }

  const resolvers = {
    Query: {
      collections: async (_: unknown, args: ConnectionArgs, context: GraphqlContext) => {
        const tenantId = requireMember(context);
        const { size, skip, hadCursor } = offsetPage(args);
        const page = await collections.list(tenantId, {}, skip, size + 1);
        return connection(page.items, skip, size, hadCursor);
      },
      documents: (_: unknown, args: ConnectionArgs & { collection?: number; status?: string }, context: GraphqlContext) =>
        documentConnection(requireMember(context), { collectionId: args.collection ?? undefined, status: args.status }, args),
      document: async (_: unknown, args: { id: string }, context: GraphqlContext) => {
        const tenantId = requireMember(context);
        if (!isUuid(args.id)) return null;
        try {
          return await documents.get(tenantId, args.id);
        } catch (err) {
          if ((err as { output?: { statusCode: number } }).output?.statusCode === 404) return null;
          throw err;
        }
      },
      search: async (_: unknown, args: { query: string; collections?: number[]; topK?: number }, context: GraphqlContext) => {
        const tenantId = requireMember(context);
        const topK = args.topK ?? 5;
        if (topK < 1 || topK > 50) throw badInput('topK must be between 1 and 50');
        if (args.query.trim() === '') throw badInput('query must not be empty');
        const result = await services.search(tenantId, { query: args.query, collection_ids: args.collections ?? undefined, include_descendants: true, top_k: topK });
        return result.results.map((hit) => ({
          chunkId: hit.chunk_id, revisionId: hit.revision_id, documentId: hit.document_id, docName: hit.doc_name,
          collectionId: hit.collection_id, page: hit.page, section: hit.section, score: hit.score, text: hit.text,
        }));
      },
    },
    Collection: {
      id: (row: CollectionView) => row.collection_id,
      parentId: (row: CollectionView) => row.parent_id,
      documentCount: (row: CollectionView) => row.document_count ?? 0,
      createdAt: (row: CollectionView) => row.created_at,
      status: async (row: CollectionView, args: { includeDescendants: boolean; windowMinutes: number }, context: GraphqlContext) => {
        if (args.windowMinutes < 1 || args.windowMinutes > 1440) throw badInput('windowMinutes must be between 1 and 1440');
        const aggregate = await status.collectionStatus(requireMember(context), row.collection_id, args.includeDescendants, args.windowMinutes);
        return {
          total: aggregate.total, counts: aggregate.counts, drainRatePerMin: aggregate.drain_rate_per_min,
          drainWindowMinutes: aggregate.drain_window_minutes, completedInWindow: aggregate.completed_in_window,
          etaSeconds: aggregate.eta_seconds, topErrors: aggregate.top_errors,
        };
      },
      documents: (row: CollectionView, args: ConnectionArgs & { status?: string; includeDescendants: boolean }, context: GraphqlContext) =>
        documentConnection(requireMember(context), { collectionId: row.collection_id, status: args.status, includeDescendants: args.includeDescendants }, args),
    },
    Document: {
      id: (row: DocumentView) => row.document_id,
      collectionId: (row: DocumentView) => row.collection_id,
      contentType: (row: DocumentView) => row.content_type,
      sizeBytes: (row: DocumentView) => row.size_bytes,
      pageCount: (row: DocumentView) => row.page_count,
      ingestionStatus: (row: DocumentView) => row.ingestion_status.toUpperCase(),
      createdAt: (row: DocumentView) => row.created_at,
      status: (row: DocumentView): Record<string, unknown> => {
        const view: StatusView = {
          document_id: row.document_id, ingestion_status: row.ingestion_status, stage: row.stage, progress_pct: row.progress_pct,
          chunk_count: row.chunk_count, revision_id: row.revision_id, error: row.error, started_at: row.started_at, completed_at: row.completed_at,
        };
        return {
          ingestionStatus: view.ingestion_status.toUpperCase(), stage: view.stage, progressPct: view.progress_pct, chunkCount: view.chunk_count,
          revisionId: view.revision_id, error: view.error, startedAt: view.started_at, completedAt: view.completed_at,
        };
      },
      revisions: async (row: DocumentView & { revisions?: Record<string, unknown>[] }, _: unknown, context: GraphqlContext) => {
        const revisions = row.revisions ?? (await documents.get(requireMember(context), row.document_id)).revisions;
        return revisions.map((r) => ({
          id: r.revision_id, revisionNumber: r.revision_number, status: r.status, isLatest: r.is_latest, contentHash: r.content_hash,
          parser: r.parser, language: r.language, pageCount: r.page_count, error: r.error, createdAt: r.created_at, completedAt: r.completed_at,
        }));
      },
      chunks: async (row: DocumentView, args: ConnectionArgs & { revision?: number }, context: GraphqlContext) => {
        const { size, skip, hadCursor } = offsetPage(args);
        const page = await documents.chunks(requireMember(context), row.document_id, args.revision ?? undefined, skip, size + 1);
        return connection(page.items.map((c) => ({
          id: c.chunk_id, revisionId: c.revision_id, ordinal: c.ordinal, kind: c.kind, text: c.text, page: c.page, section: c.section,
          charStart: c.char_start, charEnd: c.char_end, tokenCount: c.token_count,
        })), skip, size, hadCursor);
      },
    },
  };
  return { typeDefs, resolvers };
}
