// SQL of transform runs: tenant transactions only. Ids and snapshot ids as text.
import { type KeysetPage, sql, type TenantTransaction } from 'agent-platform/sdk';
import type { RunStatus, RunTrigger } from './tables.ts';
import './tables.ts';

const columns = [
  sql<string>`transform_runs.id::text`.as('id'), 'transform_runs.transform_id', 'orchestrator_run_id', 'pipeline_run_id', 'trigger',
  'transform_runs.status', 'transform_runs.parameters', 'transform_runs.output_dataset', 'compiled_sql', sql<number | null>`rows::float8`.as('rows'),
  sql<string | null>`snapshot_id::text`.as('snapshot_id'), 'transform_runs.columns', 'error', 'backend_pid', 'session_tag', 'cancel_requested', 'attempts',
  'transform_runs.created_by', 'transform_runs.created_at', 'started_at', 'finished_at',
] as const;

export interface LogLine {
  at: string;
  level: 'info' | 'error';
  message: string;
}

/** Conditions on runs (AND). */
export interface RunFilter {
  transformId?: string;
  status?: RunStatus;
}

function filtered(trx: TenantTransaction, filter: RunFilter) {
  let query = trx.selectFrom('transform_runs');
  if (filter.transformId) query = query.where('transform_runs.transform_id', '=', filter.transformId);
  if (filter.status) query = query.where('transform_runs.status', '=', filter.status);
  return query;
}

export const runsStore = {
  insert: async (trx: TenantTransaction, tenantId: string, values: {
    transform_id: string; trigger: RunTrigger; parameters: Record<string, unknown>; output_dataset: string;
    orchestrator_run_id?: string | null; pipeline_run_id?: string | null; created_by: string | null;
  }) => (await trx.insertInto('transform_runs').values({ ...values, tenant_id: tenantId, parameters: JSON.stringify(values.parameters) })
    .returning(sql<string>`id::text`.as('id')).executeTakeFirstOrThrow()).id,

  find: (trx: TenantTransaction, id: string, lock = false) => {
    const query = trx.selectFrom('transform_runs').select([...columns]).where('transform_runs.id', '=', sql<string>`${id}::bigint`);
    return (lock ? query.forUpdate() : query).executeTakeFirst();
  },

  findByOrchestrator: (trx: TenantTransaction, orchestratorRunId: string, transformId: string) =>
    trx.selectFrom('transform_runs').select([...columns]).where('orchestrator_run_id', '=', orchestratorRunId)
      .where('transform_runs.transform_id', '=', transformId).forUpdate().executeTakeFirst(),

  logs: async (trx: TenantTransaction, id: string) =>
    (await trx.selectFrom('transform_runs').select('logs').where('id', '=', sql<string>`${id}::bigint`).executeTakeFirst())?.logs,

  list: (trx: TenantTransaction, filter: { transformId?: string; status?: string; limit: number; offset: number }) => {
    let query = trx.selectFrom('transform_runs').select([...columns]);
    if (filter.transformId) query = query.where('transform_runs.transform_id', '=', filter.transformId);
    if (filter.status) query = query.where('transform_runs.status', '=', filter.status as RunStatus);
    return query.orderBy('transform_runs.id', 'desc').limit(filter.limit).offset(filter.offset).execute();
  },

  /**
   * A keyset page of runs, newest (highest id) first (GraphQL): forward, those
   * older than the cursor id; backward, the newer ones, nearest first.
   */
  page: (trx: TenantTransaction, filter: RunFilter, page: KeysetPage<string>) => {
    const forward = page.direction === 'forward';
    let query = filtered(trx, filter).select([...columns]);
    if (page.cursor !== undefined) query = query.where('transform_runs.id', forward ? '<' : '>', sql<string>`${page.cursor}::bigint`);
    return query.orderBy('transform_runs.id', forward ? 'desc' : 'asc').limit(page.limit).execute();
  },

  /** How many runs the filter selects. */
  count: async (trx: TenantTransaction, filter: RunFilter) =>
    (await filtered(trx, filter).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n,

  live: async (trx: TenantTransaction, transformId: string) =>
    !!(await trx.selectFrom('transform_runs').select('id').where('transform_id', '=', transformId)
      .where('status', 'in', ['queued', 'running']).executeTakeFirst()),

  set: (trx: TenantTransaction, id: string, values: {
    status?: RunStatus; compiled_sql?: string | null; rows?: number | null; snapshot_id?: string | null;
    columns?: { name: string; type: string }[] | null; error?: { code: string; message: string } | null;
    backend_pid?: number | null; session_tag?: string | null; cancel_requested?: boolean; attempts?: number;
    started_at?: Date | null; finished_at?: Date | null; parameters?: Record<string, unknown>;
  }) => trx.updateTable('transform_runs').set({
    ...values,
    ...(values.columns !== undefined ? { columns: JSON.stringify(values.columns) } : {}),
    ...(values.error !== undefined ? { error: JSON.stringify(values.error) } : {}),
    ...(values.parameters !== undefined ? { parameters: JSON.stringify(values.parameters) } : {}),
  } as never).where('id', '=', sql<string>`${id}::bigint`).execute(),

  appendLog: (trx: TenantTransaction, id: string, line: LogLine) =>
    sql`UPDATE transform_runs SET logs = logs || ${JSON.stringify([line])}::jsonb WHERE id = ${id}::bigint`.execute(trx),
};

export type RunRow = NonNullable<Awaited<ReturnType<typeof runsStore.find>>>;
