// SQL of source schedules (pipeline_source_schedules), in tenant transactions.
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

const columns = [
  'source_id', 'cron', 'timezone', 'missed_run_policy', 'paused', 'next_run_at', 'last_run_at', 'last_outcome', 'last_sync_run_id', 'created_at', 'updated_at',
] as const;

export interface ScheduleSettings {
  cron: string;
  timezone: string;
  missed_run_policy: 'skip' | 'catch_up_once';
  paused: boolean;
  next_run_at: Date | null;
}

export const schedulesStore = {
  upsert: (trx: TenantTransaction, tenantId: string, sourceId: string, settings: ScheduleSettings) =>
    trx.insertInto('pipeline_source_schedules').values({ tenant_id: tenantId, source_id: sourceId, ...settings })
      .onConflict((c) => c.column('source_id').doUpdateSet({ ...settings, updated_at: sql`now()` as never }))
      .returning(columns).executeTakeFirstOrThrow(),

  find: (trx: TenantTransaction, sourceId: string) =>
    trx.selectFrom('pipeline_source_schedules').select(columns).where('source_id', '=', sourceId).executeTakeFirst(),

  lock: (trx: TenantTransaction, sourceId: string) =>
    trx.selectFrom('pipeline_source_schedules').select(columns).where('source_id', '=', sourceId).forUpdate().executeTakeFirst(),

  list: (trx: TenantTransaction, page: { limit: number; offset: number }) =>
    trx.selectFrom('pipeline_source_schedules as sc').innerJoin('pipeline_sources as s', 's.id', 'sc.source_id')
      .select([...columns.map((c) => `sc.${c}` as const), 's.name as source_name'])
      .orderBy('s.name').limit(page.limit).offset(page.offset).execute(),

  set: (trx: TenantTransaction, sourceId: string, change: { paused?: boolean; next_run_at?: Date | null; last_run_at?: Date | null; last_outcome?: string; last_sync_run_id?: string | null }) =>
    trx.updateTable('pipeline_source_schedules').set({ ...change, updated_at: sql`now()` as never }).where('source_id', '=', sourceId)
      .returning(columns).executeTakeFirstOrThrow(),

  delete: (trx: TenantTransaction, sourceId: string) =>
    trx.deleteFrom('pipeline_source_schedules').where('source_id', '=', sourceId).executeTakeFirst(),
};

export type ScheduleRow = NonNullable<Awaited<ReturnType<typeof schedulesStore.find>>>;
