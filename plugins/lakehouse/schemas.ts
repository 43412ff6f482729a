// joi schemas of the lakehouse routes (and so of the OpenAPI document).
import Joi from 'joi';
import { LAKE_TYPES } from './datasets/types.ts';

/** Checked segment by segment by the service (400 DATASET_ID_INVALID naming the segment). */
export const datasetIdParam = Joi.string().min(1).max(256).description('<namespace>.<tenant_or_layer>.<table>, e.g. raw.acme.orders');
const snapshotIdText = Joi.string().pattern(/^\d{1,19}$/).messages({ 'string.pattern.base': '{{#label}} must be a snapshot id: decimal digits (the _exact field)' });

/** The deprecated numeric twin of an `_exact` id: the exact digits as a JSON number. */
const deprecatedNumber = (of: string) => Joi.any().description(`Deprecated: ${of} as a JSON number (exact digits; parsers that read numbers as doubles lose precision past 2^53). Compare ${of}_exact.`);
const exactText = (of: string) => Joi.string().allow(null).description(`${of} as a decimal string: the exact 64-bit id, for identity comparison`);

export const datasetParams = Joi.object({ dataset_id: datasetIdParam.required() });
export const icebergTableParams = Joi.object({ table: datasetIdParam.required() });

export const listQuery = Joi.object({
  namespace: Joi.string().valid('raw', 'derived', 'registry', 'sandbox'),
  q: Joi.string().trim().max(200).pattern(/^[A-Za-z0-9_.-]*$/).allow('')
    .messages({ 'string.pattern.base': '{{#label}} may hold only letters, digits, dots, hyphens and underscores (the characters of a dataset id)' })
    .description('Only datasets whose id contains this text (case-insensitive)'),
  limit: Joi.number().integer().min(1).max(500).default(100),
  offset: Joi.number().integer().min(0).max(1_000_000).default(0),
});

export const previewQuery = Joi.object({
  snapshot_id: snapshotIdText.description('A snapshot of the dataset (time travel); the latest when absent'),
  limit: Joi.number().integer().min(1).max(10_000).default(100).description('Rows (at most the previewMaxRows option)'),
  offset: Joi.number().integer().min(0).max(1_000_000).default(0),
});

export const snapshotsQuery = Joi.object({
  limit: Joi.number().integer().min(1).max(500).default(50),
  before: snapshotIdText.description('Only snapshots older than this one (paging, newest first)'),
});

export const icebergSnapshotsQuery = Joi.object({ limit: Joi.number().integer().min(1).max(500).default(100) });

const column = Joi.object({
  name: Joi.string(),
  type: Joi.string().valid(...Object.keys(LAKE_TYPES)),
  json_schema: Joi.object().unknown(true),
}).label('DatasetColumn');

const producer = Joi.object({ kind: Joi.string(), id: Joi.string(), name: Joi.string().allow(null) }).label('DatasetProducer');

export const dataset = Joi.object({
  id: Joi.string().description('The dataset id, <namespace>.<tenant_or_layer>.<table>'),
  namespace: Joi.string(),
  layer: Joi.string().description('The owning tenant, or a shared layer'),
  table: Joi.string(),
  shared: Joi.boolean().description('Readable by every tenant'),
  owned: Joi.boolean().description('Written by the calling tenant'),
  producer,
  columns: Joi.array().items(column),
  primary_key: Joi.array().items(Joi.string()),
  row_count: Joi.number().integer().description('Rows in the latest snapshot'),
  snapshot_count: Joi.number().integer().description('Snapshots kept (retention: PIPELINES_SNAPSHOT_RETENTION)'),
  latest_snapshot_id: deprecatedNumber('latest_snapshot_id'),
  latest_snapshot_id_exact: exactText('latest_snapshot_id'),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).label('Dataset');

export const datasetList = Joi.object({
  items: Joi.array().items(dataset), total: Joi.number().integer(), limit: Joi.number().integer(), offset: Joi.number().integer(),
}).label('DatasetList');

const linkedDataset = Joi.object({
  dataset_id: Joi.string(),
  exists: Joi.boolean().description('Still registered (false: dropped since)'),
  producer: producer.allow(null).description('Who writes it (null when it no longer exists)'),
}).label('LineageDataset');

export const lineage = Joi.object({
  dataset_id: Joi.string(),
  writers: Joi.array().items(producer.keys({ last_written_at: Joi.date().allow(null).description('Its newest kept snapshot of this dataset') }).label('LineageWriter'))
    .description('The registered producer first, then any other producer a kept snapshot names (a source stream, a transform, a pipeline, a sandbox run)'),
  upstream: Joi.array().items(linkedDataset).description('The datasets its kept snapshots were computed from'),
  downstream: Joi.array().items(linkedDataset).description('The datasets whose kept snapshots were computed from it'),
}).label('DatasetLineage');

export const snapshot = Joi.object({
  snapshot_id: deprecatedNumber('snapshot_id'),
  snapshot_id_exact: exactText('snapshot_id'),
  parent_snapshot_id: deprecatedNumber('parent_snapshot_id'),
  parent_snapshot_id_exact: exactText('parent_snapshot_id'),
  operation: Joi.string().description('The write mode that made it: overwrite, append or append_dedup'),
  rows_staged: Joi.number().integer(),
  rows_added: Joi.number().integer().description('Row versions it added'),
  rows_removed: Joi.number().integer().description('Row versions it closed'),
  row_count: Joi.number().integer().description('Rows it holds'),
  summary: Joi.object().unknown(true).description('What made it (e.g. sync_run_id)'),
  created_at: Joi.date(),
}).label('DatasetSnapshot');

export const snapshotList = Joi.object({
  dataset_id: Joi.string(),
  latest_snapshot_id: deprecatedNumber('latest_snapshot_id'),
  latest_snapshot_id_exact: exactText('latest_snapshot_id'),
  items: Joi.array().items(snapshot),
}).label('DatasetSnapshotList');

export const preview = Joi.object({
  dataset_id: Joi.string(),
  snapshot_id: deprecatedNumber('snapshot_id'),
  snapshot_id_exact: exactText('snapshot_id'),
  columns: Joi.array().items(column),
  rows: Joi.array().items(Joi.object().unknown(true)).description('Row objects keyed by property; bigint past 2^53 and numeric as decimal strings'),
  limit: Joi.number().integer(),
  offset: Joi.number().integer(),
}).label('DatasetPreview');

export const icebergTables = Joi.object({
  tables: Joi.array().items(Joi.object({
    identifier: Joi.string(), namespace: Joi.array().items(Joi.string()), name: Joi.string(),
    latest_snapshot_id: deprecatedNumber('latest_snapshot_id'), latest_snapshot_id_exact: exactText('latest_snapshot_id'), row_count: Joi.number().integer(),
  }).label('IcebergTable')),
  total: Joi.number().integer(),
  deprecated: Joi.string(),
}).label('IcebergTables');

export const icebergSnapshots = Joi.object({
  table: Joi.string(),
  current_snapshot_id: deprecatedNumber('current_snapshot_id'),
  current_snapshot_id_exact: exactText('current_snapshot_id'),
  snapshots: Joi.array().items(snapshot.keys({ timestamp_ms: Joi.number().integer() }).label('IcebergSnapshot')),
  deprecated: Joi.string(),
}).label('IcebergSnapshots');
