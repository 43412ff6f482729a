// joi schemas of the ingestion routes (requests in, responses out; OpenAPI at /docs).
import Joi from 'joi';

const iso = Joi.string().isoDate().allow(null);
const status = Joi.string().valid('pending', 'ingesting', 'ready', 'error');
const stage = Joi.string().valid('validate', 'create_revision', 'parse_and_chunk', 'enrich', 'finalize', 'done').allow(null);

export const paging = {
  skip: Joi.number().integer().min(0).default(0),
  limit: Joi.number().integer().min(1).max(500).default(50),
};

export const listOf = (item: Joi.Schema, label: string) =>
  Joi.object({ items: Joi.array().items(item), total: Joi.number().integer(), skip: Joi.number(), limit: Joi.number() }).unknown(true).label(label);

export const collectionIdParams = Joi.object({ collection_id: Joi.number().integer().min(1).max(2147483647).required() });
export const documentIdParams = Joi.object({ document_id: Joi.string().guid().required() });
export const sourceIdParams = Joi.object({ source_id: Joi.number().integer().min(1).max(2147483647).required() });

const metadata = Joi.object().unknown(true).max(100);

export const createCollection = Joi.object({
  name: Joi.string().trim().min(1).max(200).required(),
  description: Joi.string().max(2000).allow(''),
  parent_id: Joi.number().integer().min(1).allow(null),
  metadata,
}).label('CreateCollection');

export const updateCollection = Joi.object({
  name: Joi.string().trim().min(1).max(200),
  description: Joi.string().max(2000).allow(''),
  parent_id: Joi.number().integer().min(1).allow(null),
  metadata,
}).min(1).label('UpdateCollection');

export const collectionListQuery = Joi.object({
  ...paging,
  parent_id: Joi.alternatives(Joi.number().integer().min(1), Joi.string().valid('root')).description('Children of this collection; `root` for top-level ones'),
});

export const collection = Joi.object({
  collection_id: Joi.number().integer(),
  parent_id: Joi.number().integer().allow(null),
  name: Joi.string(),
  description: Joi.string().allow(''),
  metadata: Joi.object().unknown(true),
  document_count: Joi.number().integer(),
  created_at: iso,
  updated_at: iso,
}).label('Collection');

/** The multipart upload: `file` and optional `name` and `metadata` (a JSON object as text). */
export const uploadPayload = Joi.object({
  file: Joi.any().required().description('The document (multipart file field)'),
  name: Joi.string().trim().min(1).max(500),
  metadata: Joi.alternatives(metadata, Joi.string().max(65536)).description('A JSON object (as a form field: its JSON text)'),
}).label('UploadDocument');

export const documentListQuery = Joi.object({
  ...paging,
  collection_id: Joi.number().integer().min(1),
  include_descendants: Joi.boolean().default(true),
  status,
  include_deleted: Joi.boolean().default(false),
});

export const chunkListQuery = Joi.object({ ...paging, revision: Joi.number().integer().min(1) });

export const ingestionStatus = Joi.object({
  document_id: Joi.string(),
  ingestion_status: status,
  stage,
  progress_pct: Joi.number().integer(),
  chunk_count: Joi.number().integer(),
  revision_id: Joi.string().allow(null),
  error: Joi.string().allow(null),
  started_at: iso,
  completed_at: iso,
}).label('DocumentIngestionStatus');

const revision = Joi.object({
  revision_id: Joi.string(), revision_number: Joi.number().integer(), status: Joi.string(), is_latest: Joi.boolean(),
  content_hash: Joi.string(), content_type: Joi.string(), size_bytes: Joi.number(), parser: Joi.string().allow(null),
  language: Joi.string().allow(null), page_count: Joi.number().integer().allow(null), warnings: Joi.array(),
  enrichment: Joi.object().unknown(true), error: Joi.string().allow(null), created_at: iso, completed_at: iso,
}).label('DocumentRevision');

const documentFields = {
  document_id: Joi.string(), collection_id: Joi.number().integer(), source_id: Joi.number().integer().allow(null),
  name: Joi.string(), filename: Joi.string(), content_type: Joi.string(), size_bytes: Joi.number(), content_hash: Joi.string(),
  metadata: Joi.object().unknown(true), page_count: Joi.number().integer().allow(null), ingestion_status: status, stage,
  progress_pct: Joi.number().integer(), chunk_count: Joi.number().integer(), revision_id: Joi.string().allow(null),
  latest_revision_id: Joi.string().allow(null), error: Joi.string().allow(null), started_at: iso, completed_at: iso,
  deleted: Joi.boolean(), deleted_at: iso, created_at: iso, updated_at: iso,
};

export const document = Joi.object(documentFields).label('Document');
export const documentWithRevisions = Joi.object({ ...documentFields, revisions: Joi.array().items(revision) }).label('DocumentWithRevisions');

export const aggregateQuery = Joi.object({
  include_descendants: Joi.boolean().default(true),
  window_minutes: Joi.number().integer().min(1).max(1440).default(60),
});
export const sourceAggregateQuery = Joi.object({ window_minutes: Joi.number().integer().min(1).max(1440).default(60) });

export const aggregateStatus = Joi.object({
  collection_id: Joi.number().integer(),
  source_id: Joi.number().integer(),
  total: Joi.number().integer(),
  counts: Joi.object({ pending: Joi.number(), ingesting: Joi.number(), ready: Joi.number(), error: Joi.number(), other: Joi.number() }),
  drain_rate_per_min: Joi.number(),
  drain_window_minutes: Joi.number().integer(),
  completed_in_window: Joi.number().integer(),
  eta_seconds: Joi.number().integer().allow(null),
  top_errors: Joi.array().items(Joi.object({ reason: Joi.string(), count: Joi.number().integer() })),
}).label('AggregateIngestionStatus');

export const errorsQuery = Joi.object({ ...paging, include_descendants: Joi.boolean().default(true) });
export const sourceErrorsQuery = Joi.object(paging);

export const retryQuery = Joi.object({
  status: Joi.array().items(Joi.string().valid('error', 'pending')).single().unique().default(['error'])
    .description('`error` (default) or `pending`; repeat the parameter for both'),
});

export const retryResult = Joi.object({
  collection_id: Joi.number().integer(),
  source_id: Joi.number().integer(),
  statuses: Joi.array().items(Joi.string()),
  reset_count: Joi.number().integer(),
}).label('RetryIngestionResult');

export const searchQuery = Joi.object({
  query: Joi.string().trim().min(1).max(2000).required(),
  collection_id: Joi.array().items(Joi.number().integer().min(1)).single().max(100),
  include_descendants: Joi.boolean().default(true),
  top_k: Joi.number().integer().min(1).max(50).default(5),
});

export const syncSourceCreate = Joi.object({
  name: Joi.string().trim().min(1).max(200).required(),
  collection_id: Joi.number().integer().min(1).required(),
  kind: Joi.string().valid('directory', 'urls').required(),
  directory: Joi.string().min(1).max(4096).when('kind', { is: 'directory', then: Joi.required(), otherwise: Joi.forbidden() })
    .description('A path relative to the tenant\'s folder <root>/<tenant_id>/ of INGESTION_SYNC_ROOTS (absolute paths and .. are refused)'),
  pattern: Joi.string().min(1).max(500).when('kind', { is: 'directory', otherwise: Joi.forbidden() }),
  recursive: Joi.boolean().default(true),
  urls: Joi.array().items(Joi.string().uri({ scheme: ['http', 'https'] })).min(1).max(1000).unique()
    .when('kind', { is: 'urls', then: Joi.required(), otherwise: Joi.forbidden() }),
  schedule: Joi.string().max(100).allow(null).description('5-field cron; null: sync only on request'),
  timezone: Joi.string().max(64).default('UTC'),
  active: Joi.boolean().default(true),
}).label('CreateSyncSource');

export const syncSourceUpdate = Joi.object({
  name: Joi.string().trim().min(1).max(200),
  directory: Joi.string().min(1).max(4096).description('Relative to <root>/<tenant_id>/, as on creation'),
  pattern: Joi.string().min(1).max(500).allow(null),
  recursive: Joi.boolean(),
  urls: Joi.array().items(Joi.string().uri({ scheme: ['http', 'https'] })).min(1).max(1000).unique(),
  schedule: Joi.string().max(100).allow(null),
  timezone: Joi.string().max(64),
  active: Joi.boolean(),
}).min(1).label('UpdateSyncSource');

/** `tenant_id` is accepted as a query parameter of the per-document routes (the tenant context reads it). */
export const tenantQuery = Joi.object({ tenant_id: Joi.string().max(64) });
