// SQL of pipeline runs and their steps, in tenant transactions.
import { type KeysetPage, sql, type CoreServices, type TenantTransaction } from 'agent-platform/sdk';
import type { RunKind, RunStatus, RunTrigger, StepStatus } from './tables.ts';
import './tables.ts';

const stepColumns = [
  'run_id', 'step_id', 'position', 'depends_on', 'status', 'output_dataset', sql<string | null>`snapshot_id::text`.as('snapshot_id'),
  sql<number | null>`rows::float8`.as('rows'), 'columns', 'sample_rows', 'error', 'sql_ms', 'started_at', 'finished_at',
] as const;

export interface StepResultChange {
  status?: StepStatus;
  backend_pid?: number | null;
  session_tag?: string | null;
  output_dataset?: string | null;
  snapshot_id?: string | null;
  rows?: number | null;
  columns?: { name: string; type: string }[] | null;
  sample_rows?: Record<string, unknown>[] | null;
  error?: string | null;
  sql_ms?: number | null;
  started_at?: Date;
  finished_at?: Date | null;
}

export const runsStore = {
  insert: (trx: TenantTransaction, row: { tenant_id: string; pipeline_id: string; version: number; kind: RunKind; trigger: RunTrigger; trigger_detail: Record<string, unknown>; created_by: string | null }) =>
    trx.insertInto('pipeline_runs').values({ ...row, trigger_detail: JSON.stringify(row.trigger_detail) }).returningAll().executeTakeFirstOrThrow(),

  insertSteps: (trx: TenantTransaction, rows: { tenant_id: string; run_id: string; step_id: string; position: number; depends_on: string[]; output_dataset: string }[]) =>
    rows.length ? trx.insertInto('pipeline_run_steps').values(rows).execute() : Promise.resolve([]),

  find: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('pipeline_runs').selectAll().where('id', '=', id).executeTakeFirst(),

  lock: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('pipeline_runs').selectAll().where('id', '=', id).forUpdate().executeTakeFirst(),

  liveProduction: (trx: TenantTransaction, pipelineId: string) =>
    trx.selectFrom('pipeline_runs').selectAll().where('pipeline_id', '=', pipelineId).where('kind', '=', 'production').where('status', '=', 'running').executeTakeFirst(),

  latestSandbox: (trx: TenantTransaction, pipelineId: string, version: number) =>
    trx.selectFrom('pipeline_runs').selectAll().where('pipeline_id', '=', pipelineId).where('kind', '=', 'sandbox').where('version', '=', version)
      .orderBy('started_at', 'desc').limit(1).executeTakeFirst(),

  list: (trx: TenantTransaction, filter: { pipelineId?: string; kind?: RunKind }, page: { limit: number; offset: number }) => {
    let query = trx.selectFrom('pipeline_runs').selectAll();
    if (filter.pipelineId) query = query.where('pipeline_id', '=', filter.pipelineId);
    if (filter.kind) query = query.where('kind', '=', filter.kind);
    return query.orderBy('started_at', 'desc').orderBy('id').limit(page.limit).offset(page.offset).execute();
  },

  /**
   * A keyset page in list order (newest start first, by id within a start):
   * forward, the runs after the cursor run; backward, those before it,
   * nearest first. The cursor row's start is read in SQL (microseconds kept).
   */
  page: (trx: TenantTransaction, filter: { pipelineId?: string; kind?: RunKind }, page: KeysetPage<string>) => {
    const forward = page.direction === 'forward';
    let query = trx.selectFrom('pipeline_runs').selectAll();
    if (filter.pipelineId) query = query.where('pipeline_id', '=', filter.pipelineId);
    if (filter.kind) query = query.where('kind', '=', filter.kind);
    if (page.cursor !== undefined) {
      const start = sql`(SELECT c.started_at FROM pipeline_runs c WHERE c.id = ${page.cursor}::uuid)`;
      query = query.where(forward
        ? sql<boolean>`(started_at < ${start} OR (started_at = ${start} AND id > ${page.cursor}::uuid))`
        : sql<boolean>`(started_at > ${start} OR (started_at = ${start} AND id < ${page.cursor}::uuid))`);
    }
    return query.orderBy('started_at', forward ? 'desc' : 'asc').orderBy('id', forward ? 'asc' : 'desc').limit(page.limit).execute();
  },

  count: async (trx: TenantTransaction, filter: { pipelineId?: string; kind?: RunKind }) => {
    let query = trx.selectFrom('pipeline_runs').select(sql<number>`count(*)::int`.as('n'));
    if (filter.pipelineId) query = query.where('pipeline_id', '=', filter.pipelineId);
    if (filter.kind) query = query.where('kind', '=', filter.kind);
    return (await query.executeTakeFirstOrThrow()).n;
  },

  finish: (trx: TenantTransaction, id: string, status: RunStatus, error: string | null) =>
    trx.updateTable('pipeline_runs').set({ status, error, finished_at: sql`now()` as never }).where('id', '=', id).execute(),

  steps: (trx: TenantTransaction, runId: string) =>
    trx.selectFrom('pipeline_run_steps').select(stepColumns).where('run_id', '=', runId).orderBy('position').execute(),

  stepsOfRuns: (trx: TenantTransaction, runIds: string[]) =>
    runIds.length ? trx.selectFrom('pipeline_run_steps').select(stepColumns).where('run_id', 'in', runIds).orderBy('position').execute() : Promise.resolve([]),

  lockStep: (trx: TenantTransaction, runId: string, stepId: string) =>
    trx.selectFrom('pipeline_run_steps').select(stepColumns).where('run_id', '=', runId).where('step_id', '=', stepId).forUpdate().executeTakeFirst(),

  setStep: (trx: TenantTransaction, runId: string, stepId: string, change: StepResultChange) =>
    trx.updateTable('pipeline_run_steps').set({
      ...change,
      ...(change.columns !== undefined ? { columns: change.columns === null ? null : JSON.stringify(change.columns) } : {}),
      ...(change.sample_rows !== undefined ? { sample_rows: change.sample_rows === null ? null : JSON.stringify(change.sample_rows) } : {}),
    } as never).where('run_id', '=', runId).where('step_id', '=', stepId).execute(),

  /** The recorded statements of a run's running steps (for a cancel). */
  runningBackends: async (trx: TenantTransaction, runId: string) =>
    (await trx.selectFrom('pipeline_run_steps').select(['backend_pid', 'session_tag']).where('run_id', '=', runId).where('status', '=', 'running')
      .where('backend_pid', 'is not', null).where('session_tag', 'is not', null).execute()) as { backend_pid: number; session_tag: string }[],

  /** The recorded statement of one running step (the dead letter cancels it). */
  stepBackend: async (trx: TenantTransaction, runId: string, stepId: string) =>
    (await trx.selectFrom('pipeline_run_steps').select(['backend_pid', 'session_tag']).where('run_id', '=', runId).where('step_id', '=', stepId)
      .where('status', '=', 'running').where('backend_pid', 'is not', null).where('session_tag', 'is not', null)
      .executeTakeFirst()) as { backend_pid: number; session_tag: string } | undefined,

  /** pg_cancel_backend of a step's statement, only while its backend carries the step's session tag (the platform's connection: any process). */
  cancelStatement: async (db: CoreServices['db'], pid: number, tag: string) =>
    (await sql<{ cancelled: boolean }>`SELECT pg_cancel_backend(pid) AS cancelled FROM pg_stat_activity WHERE pid = ${pid} AND application_name = ${tag}`.execute(db)).rows[0]?.cancelled ?? false,

  /** Pending steps of a run become skipped or cancelled (downstream of a failure, a cancelled run). */
  settlePending: (trx: TenantTransaction, runId: string, stepIds: string[] | 'all', status: 'skipped' | 'cancelled') => {
    let query = trx.updateTable('pipeline_run_steps').set({ status, finished_at: sql`now()` as never }).where('run_id', '=', runId).where('status', '=', 'pending');
    if (stepIds !== 'all') {
      if (!stepIds.length) return Promise.resolve([]);
      query = query.where('step_id', 'in', stepIds);
    }
    return query.execute();
  },
};

export type RunRow = NonNullable<Awaited<ReturnType<typeof runsStore.find>>>;
export type RunStepRow = Awaited<ReturnType<typeof runsStore.steps>>[number];
