// The ingestion plugin's GraphQL types: collections, documents with their
// revisions and chunks, ingestion status, search, and the reingestDocument
// mutation. Collection ids are integers and document, revision and chunk ids
// UUIDs; all are ID (strings) here.
export const typeDefs = /* GraphQL */ `
  "Where a document is in its ingestion."
  enum IngestionStatus {
    PENDING
    INGESTING
    READY
    ERROR
  }

  "Where a revision is: being built by a run, indexed, or failed."
  enum DocumentRevisionStatus {
    BUILDING
    READY
    FAILED
  }

  "The ingestion of a document: its status, stage and progress, and the revision it is on."
  type DocumentIngestionStatus {
    ingestionStatus: IngestionStatus!
    stage: String
    progressPct: Int!
    chunkCount: Int!
    "The id of the revision being built while a run is in flight, else of the latest successful one."
    revisionId: ID
    "That revision; null when there is none."
    revision: DocumentRevision
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

  "The aggregate ingestion of a collection's documents."
  type CollectionIngestionStatus {
    total: Int!
    counts: IngestionCounts!
    drainRatePerMin: Float!
    drainWindowMinutes: Int!
    completedInWindow: Int!
    etaSeconds: Int
    topErrors: [IngestionErrorCount!]!
  }

  "Which collections a list holds (GET /api/admin/collections?parent_id=)."
  input CollectionFilter {
    "Only the children of this collection."
    parentId: ID
    "Only the top-level collections (those without a parent); not with parentId."
    topLevel: Boolean
  }

  "A folder of documents; collections nest."
  type Collection {
    id: ID!
    "The id of the collection this one is in; null at the top level."
    parentId: ID
    "The collection this one is in; null at the top level."
    parent: Collection
    name: String!
    description: String!
    metadata: JSON!
    documentCount: Int!
    createdAt: DateTime!
    "The aggregate ingestion of its documents (and its sub-collections' unless includeDescendants is false), over the last windowMinutes."
    ingestion(includeDescendants: Boolean = true, windowMinutes: Int = 60): CollectionIngestionStatus!
    "Its documents (and its sub-collections' unless filter.includeDescendants is false), newest first; filter.collectionId is not allowed here."
    documents(filter: DocumentFilter, first: Int, after: String, last: Int, before: String): DocumentConnection!
  }

  type CollectionEdge {
    node: Collection!
    cursor: String!
  }

  "Collections in id order."
  type CollectionConnection {
    edges: [CollectionEdge!]!
    pageInfo: PageInfo!
    "How many collections the list holds, with its filter."
    totalCount: Int!
  }

  "A version of a document's content, parsed and chunked by one run."
  type DocumentRevision {
    id: ID!
    revisionNumber: Int!
    status: DocumentRevisionStatus!
    isLatest: Boolean!
    contentHash: String!
    parser: String
    language: String
    pageCount: Int
    error: String
    createdAt: DateTime!
    completedAt: DateTime
  }

  "A piece of a revision's text, as indexed for search."
  type DocumentChunk {
    id: ID!
    "The id of the revision the chunk belongs to."
    revisionId: ID!
    "The revision the chunk belongs to."
    revision: DocumentRevision
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

  "Chunks in ordinal order."
  type DocumentChunkConnection {
    edges: [DocumentChunkEdge!]!
    pageInfo: PageInfo!
    "How many chunks the revision has."
    totalCount: Int!
  }

  "Which chunks of a document a list holds."
  input DocumentChunkFilter {
    "The revision with this number; unset: the latest successful revision."
    revisionNumber: Int
  }

  type Document {
    id: ID!
    "The id of the collection the document is in."
    collectionId: ID!
    "The collection the document is in; null where it is not one of the tenant's listed collections."
    collection: Collection
    name: String!
    filename: String!
    contentType: String!
    sizeBytes: Float!
    pageCount: Int
    ingestionStatus: IngestionStatus!
    deleted: Boolean!
    createdAt: DateTime!
    "The document's ingestion: status, stage, progress and revision (GET /api/admin/documents/{id}/ingestion-status)."
    ingestion: DocumentIngestionStatus!
    revisions: [DocumentRevision!]!
    "Chunks of the latest successful revision, or of the revision filter.revisionNumber."
    chunks(filter: DocumentChunkFilter, first: Int, after: String, last: Int, before: String): DocumentChunkConnection!
  }

  type DocumentEdge {
    node: Document!
    cursor: String!
  }

  "Documents, newest first."
  type DocumentConnection {
    edges: [DocumentEdge!]!
    pageInfo: PageInfo!
    "How many documents the list holds, with its filter."
    totalCount: Int!
  }

  "Which documents a list holds (GET /api/admin/documents)."
  input DocumentFilter {
    "Only the documents of this collection (and of its sub-collections unless includeDescendants is false)."
    collectionId: ID
    "Only documents with this ingestion status."
    status: IngestionStatus
    "With collectionId (or in a collection's documents): include its sub-collections' documents. Default true."
    includeDescendants: Boolean = true
  }

  "A chunk found by search, with its document."
  type DocumentSearchHit {
    chunkId: ID!
    "The chunk found."
    chunk: DocumentChunk
    revisionId: ID!
    "The revision of the chunk."
    revision: DocumentRevision
    documentId: ID!
    "The document of the chunk."
    document: Document
    "The document's name."
    documentName: String!
    collectionId: ID!
    "The collection of the document."
    collection: Collection
    page: Int!
    section: String
    score: Float!
    text: String!
  }

  extend type Query {
    "The tenant's collections, in id order."
    collections(filter: CollectionFilter, first: Int, after: String, last: Int, before: String): CollectionConnection!
    "The tenant's documents, newest first."
    documents(filter: DocumentFilter, first: Int, after: String, last: Int, before: String): DocumentConnection!
    "One document; null when there is none with this id."
    document(id: ID!): Document
    "Hybrid search over the latest revisions of live documents, in collectionIds (and their sub-collections) when given."
    search(query: String!, collectionIds: [ID!], topK: Int = 5): [DocumentSearchHit!]!
  }

  type Mutation {
    "Re-ingests a document into a new revision, prior revisions kept (as POST /api/admin/documents/{id}/reingest): admins; DOCUMENT_INGESTING while it is being ingested, INGESTION_QUOTA_EXCEEDED over the tenant's quota."
    reingestDocument(id: ID!): Document!
  }
`;
