// GraphQL for consumers who query citations: `citations(filter, first, after)`
// (a Relay connection, newest first, keyset-paged on creation order so pages
// stay stable while citations are added), `citation(id)` with the cited
// chunk's text and the document as it is now (DataLoader-batched), and
// `citationStats(filter)`; the subscription `citationVerified` (over SSE or
// WebSocket; the tenant of X-Tenant-ID) pushes each completed verification. Resolvers call the service.
//
// Access as in REST (GET /api/citations[/{id}|/stats]: a bearer member of the
// tenant, or an API key of the tenant), with an API key narrowed to its own
// client: it sees only citations recorded for its client (others are not
// found, and not counted), subscriptions included. A citation's `chunk` and
// `document` are ingestion's data (GET /api/admin/documents/…: members only):
// an API key gets FORBIDDEN on them.
import DataLoader from 'dataloader';
import { filter } from 'agent-platform/sdk';
import type { Request } from '@hapi/hapi';
import {
  badInput, type ConnectionArgs, decodeCursor, type GraphqlContext, inScope, isUuid, pageSize, requireMember, requireMemberOrApiKey, type TenantScope, toConnection,
} from 'agent-platform/sdk';
import type { ChunkRecord, DocumentSummary } from '../ingestion/api.ts';
import type { Citation, VerificationStatus } from './api.ts';
import type { CitationFilter } from './store/citations.ts';
import type { CitationsService } from './services/citations.ts';
import type { Live } from './store/live.ts';

export const typeDefs = /* GraphQL */ `
  enum CitationVerificationStatus {
    VERIFIED
    FAILED
    PENDING
    UNVERIFIED
    OUT_OF_PROVENANCE
  }

  enum CitationMatchType {
    EXACT
    NORMALIZED
    FUZZY
    NOT_FOUND
  }

  "The filters of GET /api/citations."
  input CitationFilter {
    documentId: ID
    collectionId: Int
    executionContextType: String
    executionContextId: String
    verificationStatus: CitationVerificationStatus
    "Case-insensitive partial match on the snapshot of the document name."
    documentName: String
    "Bounds on createdAt, inclusive."
    dateFrom: DateTime
    dateTo: DateTime
  }

  "The cited chunk at its revision, as indexed."
  type CitedChunk {
    chunkId: ID!
    revisionId: String!
    revisionNumber: Int!
    "The chunk text: matchedSpanStart/End are offsets into it."
    text: String!
    page: Int!
    section: String
    isLatestRevision: Boolean!
  }

  "The cited document as it is now."
  type CitedDocument {
    documentId: ID!
    name: String!
    collectionId: Int!
    contentType: String!
    ingestionStatus: String!
  }

  type Citation {
    id: ID!
    chunkId: ID!
    revisionId: String!
    documentId: ID
    collectionId: Int
    "Snapshot of the name when cited (kept after the document is deleted)."
    documentName: String!
    tenantId: String!
    executionContextType: String!
    executionContextId: String!
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

  type CitationEdge {
    node: Citation!
    cursor: String!
  }

  type CitationConnection {
    edges: [CitationEdge!]!
    pageInfo: PageInfo!
  }

  type CitationStats {
    verified: Int!
    failed: Int!
    pending: Int!
    unverified: Int!
    outOfProvenance: Int!
    total: Int!
  }

  extend type Query {
    "The tenant's citations, newest first."
    citations(filter: CitationFilter, first: Int, after: String): CitationConnection!
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
  collectionId?: number | null;
  executionContextType?: string | null;
  executionContextId?: string | null;
  verificationStatus?: string | null;
  documentName?: string | null;
  dateFrom?: Date | null;
  dateTo?: Date | null;
}

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
    if (!isUuid(input.documentId)) throw badInput('documentId must be a UUID');
    filter.document_id = input.documentId.toLowerCase();
  }
  if (input.collectionId != null) filter.collection_id = input.collectionId;
  if (input.executionContextType != null) filter.execution_context_type = input.executionContextType;
  if (input.executionContextId != null) filter.execution_context_id = input.executionContextId;
  if (input.verificationStatus != null) filter.verification_status = input.verificationStatus.toLowerCase() as VerificationStatus;
  if (input.documentName != null) filter.document_name = input.documentName;
  filter.date_from = validDate(input.dateFrom, 'dateFrom');
  filter.date_to = validDate(input.dateTo, 'dateTo');
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

interface Loaders {
  chunks: DataLoader<string, ChunkRecord | undefined>;
  documents: DataLoader<string, DocumentSummary | undefined>;
}

export function resolvers(service: CitationsService, live: Live) {
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
        const size = pageSize(args);
        const beforeSeq = decodeCursor<number>(args.after);
        if (beforeSeq !== undefined && !Number.isSafeInteger(beforeSeq)) throw badInput('Malformed cursor');
        const rows = await service.page(scope.tenantId, scopedFilter(args.filter, scope), beforeSeq, size + 1);
        return toConnection(rows, size, (row) => row.seq, Boolean(args.after));
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
        return chunk && chunk.revision_id === c.revision_id ? chunk : null;
      },
      async document(c: Citation, _: unknown, context: GraphqlContext) {
        const tenantId = requireMember(context, c.tenant_id);
        if (!c.document_id) return null;
        const document = await loaders(context, tenantId).documents.load(c.document_id);
        return document && !document.deleted ? document : null;
      },
    },
    CitedChunk: {
      chunkId: (c: ChunkRecord) => c.chunk_id,
      revisionId: (c: ChunkRecord) => c.revision_id,
      revisionNumber: (c: ChunkRecord) => c.revision_number,
      isLatestRevision: (c: ChunkRecord) => c.is_latest_revision,
    },
    CitedDocument: {
      documentId: (d: DocumentSummary) => d.document_id,
      collectionId: (d: DocumentSummary) => d.collection_id,
      contentType: (d: DocumentSummary) => d.content_type,
      ingestionStatus: (d: DocumentSummary) => d.ingestion_status,
    },
  };
}
