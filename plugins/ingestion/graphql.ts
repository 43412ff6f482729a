// GraphQL: collections, documents (by collection and status), one document
// with its revisions, chunks and ingestion, search, and reingestDocument.
// Resolvers call the services and rename the REST views to camelCase /
// UPPER_CASE here. Lists are Relay connections both ways, keyset-paged in the
// REST order (collections by id, documents newest first, chunks by ordinal),
// with totalCount; references (a document's collection, a chunk's revision, a
// search hit's chunk, revision, document and collection) are loaded per
// request in batches (graphql/loaders.ts).
//
// Access as in REST: reading (GET /api/admin/collections, documents, chunks,
// search) takes a bearer member of the tenant, on every field that reads
// (nested ones included); reingestDocument (POST
// /api/admin/documents/{id}/reingest) an admin. API keys get FORBIDDEN.
import {
  badInput, type ConnectionArgs, type GraphqlContext, isUuid, keysetConnection, requireAdmin, requireMember,
} from 'agent-platform/sdk';
import type { DocumentsService } from './services/documents.ts';
import type { PagesService } from './services/pages.ts';
import type { StatusService } from './services/status.ts';
import type { SearchService } from './services/search.ts';
import type { SearchHit } from './api.ts';
import type { DocumentKey } from './store/documents.ts';
import { typeDefs } from './graphql/schema.ts';
import {
  collectionFilterOf, collectionIdOf, type CollectionFilterInput, documentFilterOf, type DocumentFilterInput, isCollectionKey, isDocumentKey,
  isOrdinalKey, requireCollectionId, requireDocumentId,
} from './graphql/inputs.ts';
import { type ChunkView, type CollectionView, type DocumentView, ingestionLoaders, type RevisionView } from './graphql/loaders.ts';

export { typeDefs };

interface Services {
  documents: DocumentsService;
  pages: PagesService;
  status: StatusService;
  search: SearchService;
}

type DocumentNode = DocumentView & { created_key?: string; revisions?: RevisionView[] };

const upper = (value: string) => value.toUpperCase();

export function graphqlPart(services: Services) {
  const { documents, pages, status } = services;
  const loaders = ingestionLoaders(pages);

  function documentConnection(tenantId: string, filterInput: DocumentFilterInput | null | undefined, args: ConnectionArgs, collectionId?: number) {
    const filter = documentFilterOf(filterInput, collectionId);
    return keysetConnection(args, {
      keyOf: (row: DocumentNode): DocumentKey => [row.created_key!, row.document_id],
      validKey: isDocumentKey,
      fetch: (page) => pages.documents(tenantId, filter, page),
      count: () => pages.countDocuments(tenantId, filter),
    });
  }

  const resolvers = {
    Query: {
      collections: (_: unknown, args: ConnectionArgs & { filter?: CollectionFilterInput }, context: GraphqlContext) => {
        const tenantId = requireMember(context);
        const filter = collectionFilterOf(args.filter);
        return keysetConnection(args, {
          keyOf: (row: CollectionView) => row.collection_id,
          validKey: isCollectionKey,
          fetch: (page) => pages.collections(tenantId, filter, page),
          count: () => pages.countCollections(tenantId, filter),
        });
      },
      documents: (_: unknown, args: ConnectionArgs & { filter?: DocumentFilterInput }, context: GraphqlContext) =>
        documentConnection(requireMember(context), args.filter, args),
      document: async (_: unknown, args: { id: string }, context: GraphqlContext) => {
        const tenantId = requireMember(context);
        if (!isUuid(args.id)) return null;
        try {
          return await documents.get(tenantId, args.id.toLowerCase());
        } catch (err) {
          if ((err as { output?: { statusCode: number } }).output?.statusCode === 404) return null;
          throw err;
        }
      },
      search: async (_: unknown, args: { query: string; collectionIds?: string[] | null; topK?: number }, context: GraphqlContext) => {
        const tenantId = requireMember(context);
        const topK = args.topK ?? 5;
        if (topK < 1 || topK > 50) throw badInput('topK must be between 1 and 50');
        if (args.query.trim() === '') throw badInput('query must not be empty');
        const collectionIds = args.collectionIds?.map((id) => requireCollectionId(id, 'collectionIds'));
        const result = await services.search(tenantId, { query: args.query, collection_ids: collectionIds, include_descendants: true, top_k: topK });
        return result.results;
      },
    },
    Mutation: {
      reingestDocument: (_: unknown, args: { id: string }, context: GraphqlContext) =>
        documents.reingest(requireAdmin(context), requireDocumentId(args.id, 'id')),
    },
    Collection: {
      id: (row: CollectionView) => row.collection_id,
      parentId: (row: CollectionView) => row.parent_id,
      parent: (row: CollectionView, _: unknown, context: GraphqlContext) =>
        row.parent_id === null ? null : loaders(context, requireMember(context)).collections.load(row.parent_id),
      documentCount: (row: CollectionView) => row.document_count ?? 0,
      createdAt: (row: CollectionView) => row.created_at,
      ingestion: async (row: CollectionView, args: { includeDescendants: boolean; windowMinutes: number }, context: GraphqlContext) => {
        if (args.windowMinutes < 1 || args.windowMinutes > 1440) throw badInput('windowMinutes must be between 1 and 1440');
        const aggregate = await status.collectionStatus(requireMember(context), row.collection_id, args.includeDescendants, args.windowMinutes);
        return {
          total: aggregate.total, counts: aggregate.counts, drainRatePerMin: aggregate.drain_rate_per_min,
          drainWindowMinutes: aggregate.drain_window_minutes, completedInWindow: aggregate.completed_in_window,
          etaSeconds: aggregate.eta_seconds, topErrors: aggregate.top_errors,
        };
      },
      documents: (row: CollectionView, args: ConnectionArgs & { filter?: DocumentFilterInput }, context: GraphqlContext) =>
        documentConnection(requireMember(context), args.filter, args, row.collection_id),
    },
    Document: {
      id: (row: DocumentNode) => row.document_id,
      collectionId: (row: DocumentNode) => row.collection_id,
      collection: (row: DocumentNode, _: unknown, context: GraphqlContext) => loaders(context, requireMember(context)).collections.load(row.collection_id),
      contentType: (row: DocumentNode) => row.content_type,
      sizeBytes: (row: DocumentNode) => row.size_bytes,
      pageCount: (row: DocumentNode) => row.page_count,
      ingestionStatus: (row: DocumentNode) => upper(row.ingestion_status),
      createdAt: (row: DocumentNode) => row.created_at,
      ingestion: (row: DocumentNode) => ({
        ingestionStatus: upper(row.ingestion_status), stage: row.stage, progressPct: row.progress_pct, chunkCount: row.chunk_count,
        revisionId: row.revision_id, error: row.error, startedAt: row.started_at, completedAt: row.completed_at,
      }),
      revisions: async (row: DocumentNode, _: unknown, context: GraphqlContext) =>
        row.revisions ?? (await documents.get(requireMember(context), row.document_id)).revisions,
      chunks: async (row: DocumentNode, args: ConnectionArgs & { filter?: { revisionNumber?: number | null } }, context: GraphqlContext) => {
        const tenantId = requireMember(context);
        const revisionId = await pages.chunkedRevisionId(tenantId, row.document_id, args.filter?.revisionNumber ?? undefined);
        return keysetConnection(args, {
          keyOf: (chunk: ChunkView) => chunk.ordinal,
          validKey: isOrdinalKey,
          fetch: async (page) => (revisionId === null ? [] : pages.chunks(tenantId, revisionId, page)),
          count: async () => (revisionId === null ? 0 : pages.countChunks(tenantId, revisionId)),
        });
      },
    },
    DocumentIngestionStatus: {
      revision: (row: { revisionId: string | null }, _: unknown, context: GraphqlContext) =>
        row.revisionId === null ? null : loaders(context, requireMember(context)).revisions.load(row.revisionId),
    },
    DocumentRevision: {
      id: (row: RevisionView) => row.revision_id,
      revisionNumber: (row: RevisionView) => row.revision_number,
      status: (row: RevisionView) => upper(row.status),
      isLatest: (row: RevisionView) => row.is_latest,
      contentHash: (row: RevisionView) => row.content_hash,
      pageCount: (row: RevisionView) => row.page_count,
      createdAt: (row: RevisionView) => row.created_at,
      completedAt: (row: RevisionView) => row.completed_at,
    },
    DocumentChunk: {
      id: (row: ChunkView) => row.chunk_id,
      revisionId: (row: ChunkView) => row.revision_id,
      revision: (row: ChunkView, _: unknown, context: GraphqlContext) => loaders(context, requireMember(context)).revisions.load(row.revision_id),
      charStart: (row: ChunkView) => row.char_start,
      charEnd: (row: ChunkView) => row.char_end,
      tokenCount: (row: ChunkView) => row.token_count,
    },
    DocumentSearchHit: {
      chunkId: (hit: SearchHit) => hit.chunk_id,
      chunk: (hit: SearchHit, _: unknown, context: GraphqlContext) => loaders(context, requireMember(context)).chunks.load(hit.chunk_id),
      revisionId: (hit: SearchHit) => hit.revision_id,
      revision: (hit: SearchHit, _: unknown, context: GraphqlContext) => loaders(context, requireMember(context)).revisions.load(hit.revision_id),
      documentId: (hit: SearchHit) => hit.document_id,
      document: (hit: SearchHit, _: unknown, context: GraphqlContext) => loaders(context, requireMember(context)).documents.load(hit.document_id),
      documentName: (hit: SearchHit) => hit.doc_name,
      collectionId: (hit: SearchHit) => hit.collection_id,
      collection: (hit: SearchHit, _: unknown, context: GraphqlContext) => {
        const id = collectionIdOf(hit.collection_id);
        return id === undefined ? null : loaders(context, requireMember(context)).collections.load(id);
      },
    },
  };
  return { typeDefs, resolvers };
}
