// GraphQL for consumers who query citations: `citations(filter, first,
// after, last, before)` (a Relay connection, newest first, keyset-paged on
// creation order so pages stay stable while citations are added, with
// totalCount), `citation(id)` with the cited chunk's text and the document as
// it is now (DataLoader-batched), and `citationStats(filter)`; the
// subscription `citationVerified` (over SSE or WebSocket; the tenant of
// X-Tenant-ID) pushes each completed verification. Resolvers call the service.
//
// Access as in REST (GET /api/citations[/{id}|/stats]: a bearer member of the
// tenant, or an API key of the tenant), with an API key narrowed to its own
// client: it sees only citations recorded for its client (others are not
// found, and not counted), subscriptions included. A citation's `chunk`,
// `document`, `collection` and `revision` (and those of its chunk and
// document) are ingestion's data (GET /api/admin/collections, /documents/…:
// members only): an API key gets FORBIDDEN on them. The collection and the
// revision are ingestion's own GraphQL objects, lent through its api.
import DataLoader from 'dataloader';
import { filter } from 'agent-platform/sdk';
import type { Request } from '@hapi/hapi';
import {
  badInput, type ConnectionArgs, type GraphqlContext, inScope, isUuid, keysetConnection, requireMember, requireMemberOrApiKey, type TenantScope,
} from 'agent-platform/sdk';
import type { ChunkRecord, DocumentSummary, IngestionApi } from '../ingestion/api.ts';
import type { Citation, VerificationStatus } from './api.ts';
import type { CitationFilter } from './store/citations.ts';
import type { CitationsService } from './services/citations.ts';
import type { Live } from './store/live.ts';

export const typeDefs = /* GraphQL */ `
  "How a citation's quote compares with its chunk (pending: a job verifies it; outOfProvenance: the chunk was never shown to its context)."
  enum CitationVerificationStatus {
    VERIFIED
    FAILED
    PENDING
    UNVERIFIED
    OUT_OF_PROVENANCE
  }

  "How the quote matched the chunk's text."
  enum CitationMatchType {
    EXACT
    NORMALIZED
    FUZZY
    NOT_FOUND
  }

  "The filters of GET /api/citations."
  input CitationFilter {
    "Citations of this document."
    documentId: ID
    "Citations of documents in this collection (BAD_USER_INPUT when it is not a collection id)."
    collectionId: ID
    "Citations made in contexts of this type (chat_session, workflow_execution, function_call)."
    executionContextType: String
    "Citations made in this context (a chat session's id, an execution's id)."
    executionContextId: ID
    verificationStatus: CitationVerificationStatus
    "Case-insensitive partial match on the snapshot of the document name."
    documentName: String
    "Citations created at or after this instant."
    createdAfter: DateTime
    "Citations created before this instant (not at it)."
    createdBefore: DateTime
  }

  "The cited chunk at its revision, as indexed."
  type CitedChunk {
    "The chunk's id."
    id: ID!
    "The id of the document revision the chunk belongs to (see revision)."
    revisionId: ID!
    "The document revision the chunk belongs to (members only); null when it no longer exists."
    revision: DocumentRevision
    revisionNumber: Int!
    "The chunk text: matchedSpanStart/End are offsets into it."
    text: String!
    page: Int!
    section: String
    isLatestRevision: Boolean!
  }

  "The cited document as it is now."
  type CitedDocument {
    "The document's id."
    id: ID!
    name: String!
    "The id of the collection the document is in (see collection)."
    collectionId: ID!
    "The collection the document is in (members only); null when it is gone."
    collection: Collection
    contentType: String!
    ingestionStatus: IngestionStatus!
  }

  "A citation of a document chunk, made by an execution context (a chat answer, a workflow execution, a function call)."
  type Citation {
    id: ID!
    "The cited chunk's id (see chunk)."
    chunkId: ID!
    "The id of the revision of the document the citation quotes (see revision)."
    revisionId: ID!
    "The revision of the document the citation quotes (members only); null when it no longer exists."
    revision: DocumentRevision
    "The cited document's id (see document); null when the chunk was unknown when cited."
    documentId: ID
    "The id of the cited document's collection, when known (see collection)."
    collectionId: ID
    "The cited document's collection (members only); null when unknown or gone."
    collection: Collection
    "Snapshot of the name when cited (kept after the document is deleted)."
    documentName: String!
    "The tenant the citation belongs to (the request's)."
    tenantId: ID!
    "What made the citation: chat_session, workflow_execution or function_call."
    executionContextType: String!
    "The id of the context that made it (a chat session's id for chat_session)."
    executionContextId: ID!
    quotedText: String
    page: Int
    section: String
    verificationStatus: CitationVerificationStatus!
    matchType: CitationMatchType
    matchScore: Float
    matchedSpanStart: Int
    matchedSpanEnd: Int
    verifiedAt: DateTime
    createdAt: DateTime!
    "The cited chunk at the cited revision; null when it no longer exists."
    chunk: CitedChunk
    "The document now; null when it was deleted."
    document: CitedDocument
  }

  "One citation of a page, with its cursor."
  type CitationEdge {
    node: Citation!
    cursor: String!
  }

  "A page of citations (Relay), newest first."
  type CitationConnection {
    edges: [CitationEdge!]!
    pageInfo: PageInfo!
    "Citations matching the filter, in every page."
    totalCount: Int!
  }

  "Citations per verification status, for the filter."
  type CitationStats {
    verified: Int!
    failed: Int!
    pending: Int!
    unverified: Int!
    outOfProvenance: Int!
    total: Int!
  }

  extend type Query {
    "The tenant's citations, newest first (an API key: its own client's)."
    citations(filter: CitationFilter, first: Int, after: String, last: Int, before: String): CitationConnection!
    "One citation; null when it is not found (or, for an API key, another client's)."
    citation(id: ID!): Citation
    citationStats(filter: CitationFilter): CitationStats!
  }

  type Subscription {
    "Each citation of the tenant (X-Tenant-ID) whose verification completes (over SSE with Accept: text/event-stream, or WebSocket)."
    citationVerified: Citation!
  }
`;

interface FilterInput {
  documentId?: string | null;
  collectionId?: string | null;
  executionContextType?: string | null;
  executionContextId?: string | null;
  verificationStatus?: string | null;
  documentName?: string | null;
  createdAfter?: Date | null;
  createdBefore?: Date | null;
}

const COLLECTION_ID = /^[1-9][0-9]{0,9}$/;

const upper = (value: string | null) => (value === null ? null : value.toUpperCase());

function validDate(value: Date | null | undefined, name: string): Date | undefined {
  if (value === null || value === undefined) return undefined;
  if (Number.isNaN(value.getTime())) throw badInput(`${name} is not an ISO 8601 date-time`);
  return value;
}

export function filterFrom(input: FilterInput | null | undefined): CitationFilter {
  const filter: CitationFilter = {};
  if (!input) return filter;
  if (input.documentId != null) {
    if (!isUuid(input.documentId)) throw badInput('documentId is not a valid document id');
    filter.document_id = input.documentId.toLowerCase();
  }
  if (input.collectionId != null) {
    if (!COLLECTION_ID.test(input.collectionId) || Number(input.collectionId) > 2147483647) throw badInput('collectionId is not a valid collection id');
    filter.collection_id = Number(input.collectionId);
  }
  if (input.executionContextType != null) filter.execution_context_type = input.executionContextType;
  if (input.executionContextId != null) filter.execution_context_id = input.executionContextId;
  if (input.verificationStatus != null) filter.verification_status = input.verificationStatus.toLowerCase() as VerificationStatus;
  if (input.documentName != null) filter.document_name = input.documentName;
  filter.date_from = validDate(input.createdAfter, 'createdAfter');
  filter.created_before = validDate(input.createdBefore, 'createdBefore');
  if (filter.date_from === undefined) delete filter.date_from;
  if (filter.date_to === undefined) delete filter.date_to;
  return filter;
}

/** The filter, narrowed to the API key's client when the caller is one. */
function scopedFilter(input: FilterInput | null | undefined, scope: TenantScope): CitationFilter {
  const filter = filterFrom(input);
  if (scope.clientId !== undefined) filter.client_id = scope.clientId;
  return filter;
}

/** A chunk or document read for a citation, with the citation's tenant (what its own references are read in). */
type OfTenant<T> = T & { tenant_id: string };

interface Loaders {
  chunks: DataLoader<string, ChunkRecord | undefined>;
  documents: DataLoader<string, DocumentSummary | undefined>;
}

export function resolvers(service: CitationsService, live: Live, ingestion: () => IngestionApi) {
  // One pair of loaders per request and tenant: a page of citations reads its chunks in one query.
  const perRequest = new WeakMap<Request, Loaders>();
  function loaders(context: GraphqlContext, tenantId: string): Loaders {
    let found = perRequest.get(context.request);
    if (!found) {
      found = {
        chunks: new DataLoader(async (ids: readonly string[]) => {
          const byId = await service.chunks(tenantId, ids);
          return ids.map((id) => byId.get(id));
        }),
        // Not cached: a subscription's context lives as long as its connection, and a document can be deleted meanwhile
        // (chunks are immutable by id, so their cache stays). Keys are still batched, and deduplicated by the service.
        documents: new DataLoader((ids: readonly string[]) => service.documents(tenantId, ids), { cache: false }),
      };
      perRequest.set(context.request, found);
    }
    return found;
  }

  return {
    Query: {
      async citations(_: unknown, args: ConnectionArgs & { filter?: FilterInput }, context: GraphqlContext) {
        const scope = requireMemberOrApiKey(context);
        const filter = scopedFilter(args.filter, scope);
        return keysetConnection(args, {
          keyOf: (row: Citation & { seq: number }) => row.seq,
          validKey: (key) => Number.isSafeInteger(key),
          fetch: (page) => service.page(scope.tenantId, filter, { direction: page.direction, seq: page.cursor, limit: page.limit }),
          count: () => service.count(scope.tenantId, filter),
        });
      },
      async citation(_: unknown, args: { id: string }, context: GraphqlContext) {
        const scope = requireMemberOrApiKey(context);
        if (!isUuid(args.id)) return null;
        const citation = await service.find(scope.tenantId, args.id.toLowerCase());
        return citation && inScope(scope, citation.client_id) ? citation : null;
      },
      citationStats: async (_: unknown, args: { filter?: FilterInput }, context: GraphqlContext) => {
        const scope = requireMemberOrApiKey(context);
        const stats = await service.stats(scope.tenantId, scopedFilter(args.filter, scope));
        return { ...stats, outOfProvenance: stats.out_of_provenance };
      },
    },
    Subscription: {
      citationVerified: {
        subscribe(_: unknown, __: unknown, context: GraphqlContext) {
          const scope = requireMemberOrApiKey(context);
          const verified = live.subscribe(scope.tenantId);
          return scope.clientId === undefined ? verified : filter((citation: Citation) => inScope(scope, citation.client_id))(verified);
        },
        resolve: (citation: Citation) => citation,
      },
    },
    Citation: {
      chunkId: (c: Citation) => c.chunk_id,
      revisionId: (c: Citation) => c.revision_id,
      documentId: (c: Citation) => c.document_id,
      collectionId: (c: Citation) => c.collection_id,
      documentName: (c: Citation) => c.document_name,
      tenantId: (c: Citation) => c.tenant_id,
      executionContextType: (c: Citation) => c.execution_context_type,
      executionContextId: (c: Citation) => c.execution_context_id,
      quotedText: (c: Citation) => c.quoted_text,
      verificationStatus: (c: Citation) => upper(c.verification_status),
      matchType: (c: Citation) => upper(c.match_type),
      matchScore: (c: Citation) => c.match_score,
      matchedSpanStart: (c: Citation) => c.matched_span_start,
      matchedSpanEnd: (c: Citation) => c.matched_span_end,
      verifiedAt: (c: Citation) => c.verified_at,
      createdAt: (c: Citation) => c.created_at,
      async chunk(c: Citation, _: unknown, context: GraphqlContext) {
        // A subscription's payload may reach a request of another tenant's context: use the citation's own tenant.
        const chunk = await loaders(context, requireMember(context, c.tenant_id)).chunks.load(c.chunk_id);
        return chunk && chunk.revision_id === c.revision_id ? { ...chunk, tenant_id: c.tenant_id } : null;
      },
      async document(c: Citation, _: unknown, context: GraphqlContext) {
        const tenantId = requireMember(context, c.tenant_id);
        if (!c.document_id) return null;
        const document = await loaders(context, tenantId).documents.load(c.document_id);
        return document && !document.deleted ? { ...document, tenant_id: c.tenant_id } : null;
      },
      collection: (c: Citation, _: unknown, context: GraphqlContext) => {
        const tenantId = requireMember(context, c.tenant_id);
        return c.collection_id === null ? null : ingestion().collectionNode(context, tenantId, c.collection_id);
      },
      revision: (c: Citation, _: unknown, context: GraphqlContext) =>
        ingestion().revisionNode(context, requireMember(context, c.tenant_id), c.revision_id),
    },
    CitedChunk: {
      id: (c: ChunkRecord) => c.chunk_id,
      revisionId: (c: ChunkRecord) => c.revision_id,
      revision: (c: OfTenant<ChunkRecord>, _: unknown, context: GraphqlContext) =>
        ingestion().revisionNode(context, requireMember(context, c.tenant_id), c.revision_id),
      revisionNumber: (c: ChunkRecord) => c.revision_number,
      isLatestRevision: (c: ChunkRecord) => c.is_latest_revision,
    },
    CitedDocument: {
      id: (d: DocumentSummary) => d.document_id,
      collectionId: (d: DocumentSummary) => d.collection_id,
      collection: (d: OfTenant<DocumentSummary>, _: unknown, context: GraphqlContext) =>
        ingestion().collectionNode(context, requireMember(context, d.tenant_id), d.collection_id),
      contentType: (d: DocumentSummary) => d.content_type,
      ingestionStatus: (d: DocumentSummary) => d.ingestion_status.toUpperCase(),
    },
  };
}
