// SQL of sync runs, their per-stream rows and their log lines, in tenant
// transactions. Snapshot ids are read as text: they pass 2^53.
import { type KeysetPage, sql, type TenantTransaction } from 'agent-platform/sdk';
import type { RunStatus } from './tables.ts';
import './tables.ts';

const runColumns = [
  'id', 'source_id', 'workflow_id', 'trigger', 'status', 'requested_streams', 'attempts', 'rows_read', 'rows_added', 'rows_removed',
  'error', 'created_by', 'created_at', 'started_at', 'finished_at',
] as const;

const streamColumns = [
  'run_id', 'stream_id', 'stream_name', 'namespace', 'destination', 'sync_mode', 'write_mode', 'status', 'rows_read', 'rows_added',
  'rows_removed', 'type_errors', sql<string | null>`snapshot_id::text`.as('snapshot_id'), 'snapshot_created', 'cursor_before', 'cursor_after', 'error', 'finished_at',
] as const;

export interface RunStreamResult {
  rows_read: number;
  rows_added: number;
  rows_removed: number;
  type_errors: number;
  snapshot_id: string | null;
  snapshot_created: boolean;
  cursor_after: string | null;
}

/** Conditions on runs (AND). */
export interface RunFilter {
  sourceId?: string;
  status?: RunStatus;
}

function filtered(trx: TenantTransaction, filter: RunFilter) {
  let query = trx.selectFrom('pipeline_sync_runs');
  if (filter.sourceId) query = query.where('source_id', '=', filter.sourceId);
  if (filter.status) query = query.where('status', '=', filter.status);
  return query;
}

export const runsStore = {
  insert: (trx: TenantTransaction, run: { tenant_id: string; source_id: string; trigger: 'manual' | 'schedule'; requested_streams: string[] | null; created_by: string | null }) =>
    trx.insertInto('pipeline_sync_runs').values(run).returning(runColumns).executeTakeFirstOrThrow(),

  setWorkflow: (trx: TenantTransaction, id: string, workflowId: string) =>
    trx.updateTable('pipeline_sync_runs').set({ workflow_id: workflowId }).where('id', '=', id).execute(),

  find: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('pipeline_sync_runs').select(runColumns).where('id', '=', id).executeTakeFirst(),

  findByWorkflow: (trx: TenantTransaction, workflowId: string) =>
    trx.selectFrom('pipeline_sync_runs').select(runColumns).where('workflow_id', '=', workflowId).executeTakeFirst(),

  lock: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('pipeline_sync_runs').select(runColumns).where('id', '=', id).forUpdate().executeTakeFirst(),

  latest: (trx: TenantTransaction, sourceId: string) =>
    trx.selectFrom('pipeline_sync_runs').select(runColumns).where('source_id', '=', sourceId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst(),

  history: (trx: TenantTransaction, sourceId: string, page: { limit: number; offset: number; status?: RunStatus }) => {
    let query = trx.selectFrom('pipeline_sync_runs').select(runColumns).where('source_id', '=', sourceId);
    if (page.status) query = query.where('status', '=', page.status);
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
  },

  /**
   * A keyset page of runs, newest first (GraphQL): forward, those older than
   * the cursor run; backward, the newer ones, nearest first. The cursor row's
   * timestamp is compared in SQL (a JavaScript Date drops microseconds).
   */
  page: (trx: TenantTransaction, filter: RunFilter, page: KeysetPage<string>) => {
    const forward = page.direction === 'forward';
    let query = filtered(trx, filter).select(runColumns);
    if (page.cursor !== undefined) {
      const cursor = sql`(SELECT c.created_at, c.id FROM pipeline_sync_runs c WHERE c.id = ${page.cursor}::uuid)`;
      query = query.where(forward ? sql<boolean>`(created_at, id) < ${cursor}` : sql<boolean>`(created_at, id) > ${cursor}`);
    }
    const order = forward ? 'desc' : 'asc';
    return query.orderBy('created_at', order).orderBy('id', order).limit(page.limit).execute();
  },

  /** How many runs the filter selects. */
  count: async (trx: TenantTransaction, filter: RunFilter) =>
    (await filtered(trx, filter).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n,

  stats: async (trx: TenantTransaction, sourceId: string) => (await sql<{
    total: number; succeeded: number; partial: number; failed: number; running: number; rows_read: number; rows_added: number;
    average_seconds: number | null; last_success_at: Date | null; last_failure_at: Date | null;
  }>`
    SELECT count(*)::int AS total,
           count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
           count(*) FILTER (WHERE status = 'partial')::int AS partial,
           count(*) FILTER (WHERE status = 'failed')::int AS failed,
           count(*) FILTER (WHERE status IN ('queued', 'running'))::int AS running,
           coalesce(sum(rows_read), 0)::float8 AS rows_read,
           coalesce(sum(rows_added), 0)::float8 AS rows_added,
           avg(extract(epoch FROM finished_at - started_at)) FILTER (WHERE finished_at IS NOT NULL)::float8 AS average_seconds,
           max(finished_at) FILTER (WHERE status = 'succeeded') AS last_success_at,
           max(finished_at) FILTER (WHERE status IN ('failed', 'partial')) AS last_failure_at
      FROM pipeline_sync_runs WHERE source_id = ${sourceId}`.execute(trx)).rows[0]!,

  start: (trx: TenantTransaction, id: string, attempt: number) =>
    trx.updateTable('pipeline_sync_runs').set({ status: 'running', attempts: attempt, started_at: sql`coalesce(started_at, now())` as never, error: null })
      .where('id', '=', id).execute(),

  finish: (trx: TenantTransaction, id: string, status: RunStatus, error: string | null) =>
    trx.updateTable('pipeline_sync_runs')
      .set({ status, error, finished_at: status === 'queued' ? null : (sql`now()` as never) })
      .where('id', '=', id).execute(),

  addCounts: (trx: TenantTransaction, id: string, counts: { rows_read: number; rows_added: number; rows_removed: number }) =>
    trx.updateTable('pipeline_sync_runs').set({
      rows_read: sql`rows_read + ${counts.rows_read}`, rows_added: sql`rows_added + ${counts.rows_added}`, rows_removed: sql`rows_removed + ${counts.rows_removed}`,
    } as never).where('id', '=', id).execute(),
};

export const runStreamsStore = {
  /** The run's streams as planned (an attempt after a crash finds them already there). */
  plan: (trx: TenantTransaction, rows: { tenant_id: string; run_id: string; stream_id: string; stream_name: string; namespace: string | null; destination: string; sync_mode: string; write_mode: string; cursor_before: string | null }[]) =>
    rows.length === 0 ? Promise.resolve() : trx.insertInto('pipeline_sync_run_streams').values(rows).onConflict((c) => c.columns(['tenant_id', 'run_id', 'stream_id']).doNothing()).execute(),

  list: (trx: TenantTransaction, runId: string) =>
    trx.selectFrom('pipeline_sync_run_streams').select(streamColumns).where('run_id', '=', runId).orderBy('stream_name').execute(),

  /** The streams of these runs, by stream name within a run. */
  listMany: (trx: TenantTransaction, runIds: string[]) =>
    runIds.length === 0 ? Promise.resolve([])
      : trx.selectFrom('pipeline_sync_run_streams').select(streamColumns).where('run_id', 'in', runIds).orderBy('stream_name').execute(),

  succeeded: (trx: TenantTransaction, runId: string, streamId: string, result: RunStreamResult) =>
    trx.updateTable('pipeline_sync_run_streams')
      .set({ ...result, status: 'succeeded', error: null, finished_at: sql`now()` as never })
      .where('run_id', '=', runId).where('stream_id', '=', streamId).execute(),

  failed: (trx: TenantTransaction, runId: string, streamId: string, error: string) =>
    trx.updateTable('pipeline_sync_run_streams').set({ status: 'failed', error, finished_at: sql`now()` as never })
      .where('run_id', '=', runId).where('stream_id', '=', streamId).execute(),

  /** The latest successful snapshot of each stream of a source (the iceberg-refs). */
  latestRefs: (trx: TenantTransaction, sourceId: string) =>
    trx.selectFrom('pipeline_sync_run_streams as rs').innerJoin('pipeline_sync_runs as r', 'r.id', 'rs.run_id')
      .select(['rs.stream_id', 'rs.stream_name', 'rs.namespace', 'rs.destination', sql<string | null>`rs.snapshot_id::text`.as('snapshot_id'), 'rs.run_id', 'rs.finished_at'])
      .distinctOn('rs.stream_id')
      .where('r.source_id', '=', sourceId).where('rs.status', '=', 'succeeded').where('rs.snapshot_id', 'is not', null)
      .orderBy('rs.stream_id').orderBy('rs.finished_at', 'desc').execute(),
};

export const logsStore = {
  add: (trx: TenantTransaction, tenantId: string, runId: string, level: 'info' | 'warn' | 'error', message: string) =>
    trx.insertInto('pipeline_run_logs').values({ tenant_id: tenantId, run_id: runId, level, message: message.slice(0, 4000) }).execute(),

  list: (trx: TenantTransaction, runId: string, page: { after: number; limit: number }) =>
    trx.selectFrom('pipeline_run_logs').select(['id', 'at', 'level', 'message']).where('run_id', '=', runId).where('id', '>', page.after)
      .orderBy('id').limit(page.limit).execute(),
};

export type RunRow = NonNullable<Awaited<ReturnType<typeof runsStore.find>>>;
export type RunStreamRow = Awaited<ReturnType<typeof runStreamsStore.list>>[number];

export const discoveriesStore = {
  insert: (trx: TenantTransaction, row: { tenant_id: string; source_id: string; apply: boolean }) =>
    trx.insertInto('pipeline_discoveries').values(row).returning(['workflow_id']).executeTakeFirstOrThrow(),

  find: (trx: TenantTransaction, workflowId: string) =>
    trx.selectFrom('pipeline_discoveries').selectAll().where('workflow_id', '=', workflowId).executeTakeFirst(),

  set: (trx: TenantTransaction, workflowId: string, change: { status: 'running' | 'succeeded' | 'failed'; streams?: unknown[]; error?: string | null }) =>
    trx.updateTable('pipeline_discoveries').set({
      status: change.status,
      ...(change.streams !== undefined ? { streams: JSON.stringify(change.streams) } : {}),
      ...(change.error !== undefined ? { error: change.error } : {}),
      ...(change.status === 'running' ? {} : { finished_at: sql`now()` as never }),
    }).where('workflow_id', '=', workflowId).execute(),
};
