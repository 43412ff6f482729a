// SQL of pipelines and their versions, in tenant transactions.
import { type KeysetPage, sql, type TenantTransaction } from 'agent-platform/sdk';
import type { StepSpec } from '../dag/types.ts';
import type { PipelineState } from './tables.ts';
import './tables.ts';

const columns = [
  'id', 'tenant_id', 'name', 'description', 'steps', 'schedule_cron', 'schedule_timezone', 'sensor', 'state',
  'active_version', 'activated_at', 'next_run_at', 'created_by', 'created_at', 'updated_at',
] as const;

const latestVersion = sql<number | null>`(SELECT max(v.version) FROM pipeline_versions v WHERE v.pipeline_id = pipelines.id)`.as('latest_version');

export interface PipelineChange {
  name?: string;
  description?: string;
  steps?: StepSpec[];
  schedule_cron?: string | null;
  schedule_timezone?: string;
  sensor?: boolean;
  state?: PipelineState;
  active_version?: number | null;
  activated_at?: Date | null;
  next_run_at?: Date | null;
}

export const pipelinesStore = {
  insert: (trx: TenantTransaction, row: { tenant_id: string; name: string; description: string; steps: StepSpec[]; schedule_cron: string | null; schedule_timezone: string; sensor: boolean; state: PipelineState; created_by: string | null }) =>
    trx.insertInto('pipelines').values({ ...row, steps: JSON.stringify(row.steps) }).returning(columns).executeTakeFirstOrThrow(),

  find: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('pipelines').select([...columns, latestVersion]).where('id', '=', id).executeTakeFirst(),

  findByName: (trx: TenantTransaction, name: string) =>
    trx.selectFrom('pipelines').select([...columns, latestVersion]).where('name', '=', name).executeTakeFirst(),

  lock: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('pipelines').select([...columns, latestVersion]).where('id', '=', id).forUpdate().executeTakeFirst(),

  list: (trx: TenantTransaction, page: { limit: number; offset: number }) =>
    trx.selectFrom('pipelines').select([...columns, latestVersion]).orderBy('created_at').orderBy('id').limit(page.limit).offset(page.offset).execute(),

  /**
   * A keyset page in list order (oldest first, by id within a timestamp):
   * forward, the pipelines after the cursor pipeline; backward, those before
   * it, nearest first. The cursor row's timestamp is compared in SQL (a
   * JavaScript Date drops Postgres' microseconds).
   */
  page: (trx: TenantTransaction, page: KeysetPage<string>) => {
    const forward = page.direction === 'forward';
    let query = trx.selectFrom('pipelines').select([...columns, latestVersion]);
    if (page.cursor !== undefined) {
      const cursor = sql`(SELECT c.created_at, c.id FROM pipelines c WHERE c.id = ${page.cursor}::uuid)`;
      query = query.where(forward ? sql<boolean>`(created_at, id) > ${cursor}` : sql<boolean>`(created_at, id) < ${cursor}`);
    }
    const order = forward ? 'asc' : 'desc';
    return query.orderBy('created_at', order).orderBy('id', order).limit(page.limit).execute();
  },

  /** The pipelines of these ids (those that exist). */
  findMany: (trx: TenantTransaction, ids: string[]) =>
    ids.length === 0 ? Promise.resolve([]) : trx.selectFrom('pipelines').select([...columns, latestVersion]).where('id', 'in', ids).execute(),

  count: async (trx: TenantTransaction) =>
    (await trx.selectFrom('pipelines').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n,

  /** Active pipelines that run when an input gets a snapshot. */
  activeSensors: (trx: TenantTransaction) =>
    trx.selectFrom('pipelines').select([...columns, latestVersion]).where('state', '=', 'active').where('sensor', '=', true).execute(),

  update: (trx: TenantTransaction, id: string, change: PipelineChange) =>
    trx.updateTable('pipelines')
      .set({ ...change, ...(change.steps !== undefined ? { steps: JSON.stringify(change.steps) } : {}), updated_at: sql`now()` as never } as never)
      .where('id', '=', id).returning(columns).executeTakeFirstOrThrow(),

  /** Snapshots waiting for the end of the live run (merged with any already waiting). */
  addSensorPending: (trx: TenantTransaction, id: string, snapshots: unknown[]) =>
    trx.updateTable('pipelines')
      .set({ sensor_pending: sql`jsonb_build_object('snapshots', coalesce(sensor_pending->'snapshots', '[]'::jsonb) || ${JSON.stringify(snapshots)}::jsonb)` as never })
      .where('id', '=', id).execute(),

  /** Takes what waits (and clears it), locked with the row. */
  takeSensorPending: async (trx: TenantTransaction, id: string) => {
    const row = await trx.selectFrom('pipelines').select(['sensor_pending']).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!row?.sensor_pending) return null;
    await trx.updateTable('pipelines').set({ sensor_pending: null }).where('id', '=', id).execute();
    return row.sensor_pending;
  },

  delete: (trx: TenantTransaction, id: string) =>
    trx.deleteFrom('pipelines').where('id', '=', id).executeTakeFirst(),
};

export const versionsStore = {
  insert: (trx: TenantTransaction, row: { tenant_id: string; pipeline_id: string; version: number; steps: StepSpec[]; fingerprint: string; note: string; created_by: string | null }) =>
    trx.insertInto('pipeline_versions').values({ ...row, steps: JSON.stringify(row.steps) }).returningAll().executeTakeFirstOrThrow(),

  find: (trx: TenantTransaction, pipelineId: string, version: number) =>
    trx.selectFrom('pipeline_versions').selectAll().where('pipeline_id', '=', pipelineId).where('version', '=', version).executeTakeFirst(),

  latest: (trx: TenantTransaction, pipelineId: string) =>
    trx.selectFrom('pipeline_versions').selectAll().where('pipeline_id', '=', pipelineId).orderBy('version', 'desc').limit(1).executeTakeFirst(),

  list: (trx: TenantTransaction, pipelineId: string) =>
    trx.selectFrom('pipeline_versions').selectAll().where('pipeline_id', '=', pipelineId).orderBy('version', 'desc').execute(),
};

export type PipelineRow = NonNullable<Awaited<ReturnType<typeof pipelinesStore.find>>>;
export type VersionRow = NonNullable<Awaited<ReturnType<typeof versionsStore.find>>>;
