// joi schemas of the sync, run and discovery routes.
import Joi from 'joi';

const uuid = Joi.string().guid();
const exact = Joi.string().pattern(/^\d+$/).allow(null);

export const runParams = Joi.object({ source_id: uuid.required(), run_id: uuid.required() });
export const syncRunParams = Joi.object({ sync_run_id: uuid.required() });
export const workflowParams = Joi.object({ workflow_id: Joi.string().min(1).max(100).required() });
export const discoveryParams = Joi.object({ workflow_id: uuid.required() });

export const syncBody = Joi.object({
  streams: Joi.array().items(Joi.string().min(1).max(200)).min(1).max(1000).unique().description('Only these streams (by name); default: every enabled stream'),
}).allow(null).label('SyncRequest');

export const discoverBody = Joi.object({
  source_id: uuid.required(),
  apply: Joi.boolean().default(false).description('Apply the result as refresh-schema when discovery succeeds'),
}).label('DiscoverRequest');

export const historyQuery = Joi.object({
  limit: Joi.number().integer().min(1).max(500).default(50),
  offset: Joi.number().integer().min(0).max(1_000_000).default(0),
  status: Joi.string().valid('queued', 'running', 'succeeded', 'partial', 'failed'),
});

export const logsQuery = Joi.object({
  after: Joi.number().integer().min(0).default(0).description('Only lines after this id (paging)'),
  limit: Joi.number().integer().min(1).max(5000).default(500),
});

const runStream = Joi.object({
  run_id: Joi.string(), stream_id: Joi.string(), stream_name: Joi.string(), namespace: Joi.string().allow(null), destination: Joi.string(),
  sync_mode: Joi.string(), write_mode: Joi.string(), status: Joi.string().valid('pending', 'succeeded', 'failed'),
  rows_read: Joi.number(), rows_added: Joi.number(), rows_removed: Joi.number(), type_errors: Joi.number(),
  snapshot_id: exact.description('The snapshot the stream\'s write left the dataset at (decimal string)'), snapshot_id_exact: exact,
  snapshot_created: Joi.boolean(), cursor_before: Joi.string().allow(null), cursor_after: Joi.string().allow(null),
  error: Joi.string().allow(null), finished_at: Joi.date().allow(null),
}).label('SyncRunStream');

export const run = Joi.object({
  id: Joi.string(), sync_run_id: Joi.string(), source_id: Joi.string(),
  workflow_id: Joi.string().allow(null).description('The orchestrator run id (the pg-boss job)'),
  trigger: Joi.string().valid('manual', 'schedule'), status: Joi.string().valid('queued', 'running', 'succeeded', 'partial', 'failed'),
  is_terminal: Joi.boolean(), requested_streams: Joi.array().items(Joi.string()).allow(null), attempts: Joi.number().integer(),
  rows_read: Joi.number(), rows_added: Joi.number(), rows_removed: Joi.number(), error: Joi.string().allow(null),
  created_by: Joi.string().allow(null), created_at: Joi.date(), started_at: Joi.date().allow(null), finished_at: Joi.date().allow(null),
  streams: Joi.array().items(runStream),
}).label('SyncRun');

export const runList = Joi.object({ items: Joi.array().items(run), limit: Joi.number(), offset: Joi.number() }).label('SyncRunList');
export const runStreamList = Joi.object({ sync_run_id: Joi.string(), items: Joi.array().items(runStream) }).label('SyncRunStreamList');

export const syncStatus = Joi.object({
  source_id: Joi.string(), source_state: Joi.string().valid('ready', 'active'), running: Joi.boolean(), run: run.allow(null),
}).label('SyncStatus');

export const syncStats = Joi.object({
  source_id: Joi.string(), total: Joi.number(), succeeded: Joi.number(), partial: Joi.number(), failed: Joi.number(), running: Joi.number(),
  rows_read: Joi.number(), rows_added: Joi.number(), average_seconds: Joi.number().allow(null),
  last_success_at: Joi.date().allow(null), last_failure_at: Joi.date().allow(null),
}).label('SyncStats');

export const logs = Joi.object({
  run_id: Joi.string(),
  items: Joi.array().items(Joi.object({ id: Joi.number(), at: Joi.date(), level: Joi.string(), message: Joi.string() }).label('SyncRunLogLine')),
  next_after: Joi.number(),
}).label('SyncRunLogs');

export const refs = Joi.object({
  source_id: Joi.string(),
  items: Joi.array().items(Joi.object({
    stream_id: Joi.string(), stream_name: Joi.string(), namespace: Joi.string().allow(null), destination: Joi.string(), table: Joi.string(),
    snapshot_id: exact, snapshot_id_exact: exact, run_id: Joi.string(), finished_at: Joi.date().allow(null),
  }).label('SourceTableRef')),
}).label('SourceTableRefs');

export const discovery = Joi.object({
  workflow_id: Joi.string(), source_id: Joi.string(), apply: Joi.boolean(),
  status: Joi.string().valid('queued', 'running', 'succeeded', 'failed'),
  streams: Joi.array().items(Joi.object().unknown(true)).allow(null).description('The discovered streams (a refresh-schema body)'),
  error: Joi.string().allow(null), created_at: Joi.date(), finished_at: Joi.date().allow(null),
}).label('Discovery');

export const discoveryStarted = Joi.object({ workflow_id: Joi.string(), status: Joi.string() }).label('DiscoveryStarted');
