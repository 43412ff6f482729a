// SQL of transform schedules: tenant transactions only.
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

const columns = ['transform_schedules.transform_id', 'cron', 'timezone', 'missed_run_policy', 'paused', 'next_run_at', 'last_run_at',
  'last_outcome', sql<string | null>`last_run_id::text`.as('last_run_id'), 'transform_schedules.created_at', 'transform_schedules.updated_at'] as const;

export const schedulesStore = {
  find: (trx: TenantTransaction, transformId: string, lock = false) => {
    const query = trx.selectFrom('transform_schedules').innerJoin('transforms', 'transforms.id', 'transform_schedules.transform_id')
      .select([...columns, 'transforms.name as transform_name']).where('transform_schedules.transform_id', '=', transformId);
    return (lock ? query.forUpdate() : query).executeTakeFirst();
  },

  list: (trx: TenantTransaction, page: { limit: number; offset: number }) =>
    trx.selectFrom('transform_schedules').innerJoin('transforms', 'transforms.id', 'transform_schedules.transform_id')
      .select([...columns, 'transforms.name as transform_name']).orderBy('transforms.name').limit(page.limit).offset(page.offset).execute(),

  upsert: async (trx: TenantTransaction, tenantId: string, transformId: string, values: { cron: string; timezone: string; missed_run_policy: 'skip' | 'catch_up_once'; paused: boolean; next_run_at: Date | null }) => {
    await trx.insertInto('transform_schedules').values({ ...values, tenant_id: tenantId, transform_id: transformId })
      .onConflict((oc) => oc.column('transform_id').doUpdateSet({ ...values, updated_at: sql`now()` as never })).execute();
  },

  set: (trx: TenantTransaction, transformId: string, values: { paused?: boolean; next_run_at?: Date | null; last_run_at?: Date | null; last_outcome?: string | null; last_run_id?: string | null }) =>
    trx.updateTable('transform_schedules').set({ ...values, updated_at: sql`now()` as never }).where('transform_id', '=', transformId).execute(),

  delete: (trx: TenantTransaction, transformId: string) => trx.deleteFrom('transform_schedules').where('transform_id', '=', transformId).execute(),
};

export type ScheduleRow = NonNullable<Awaited<ReturnType<typeof schedulesStore.find>>>;
