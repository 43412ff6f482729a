// SQL of generic run records (external orchestrators): tenant transactions only.
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import type { GenericRunStatus } from './tables.ts';
import './tables.ts';

const columns = [sql<string>`id::text`.as('id'), 'triggering_transform_id', 'orchestrator_run_id', 'job_name', 'status', 'message', 'metadata',
  'created_by', 'created_at', 'started_at', 'finished_at'] as const;

export const genericRunsStore = {
  insert: async (trx: TenantTransaction, tenantId: string, values: { triggering_transform_id: string; orchestrator_run_id: string | null; job_name: string | null; metadata: Record<string, unknown>; created_by: string | null }) =>
    (await trx.insertInto('transform_generic_runs').values({ ...values, tenant_id: tenantId, metadata: JSON.stringify(values.metadata) })
      .returning(sql<string>`id::text`.as('id')).executeTakeFirstOrThrow()).id,

  find: (trx: TenantTransaction, id: string, lock = false) => {
    const query = trx.selectFrom('transform_generic_runs').select([...columns]).where('id', '=', sql<string>`${id}::bigint`);
    return (lock ? query.forUpdate() : query).executeTakeFirst();
  },

  list: (trx: TenantTransaction, filter: { status?: string; transformId?: string; orchestratorRunId?: string; limit: number; offset: number }) => {
    let query = trx.selectFrom('transform_generic_runs').select([...columns]);
    if (filter.status) query = query.where('status', '=', filter.status as GenericRunStatus);
    if (filter.transformId) query = query.where('triggering_transform_id', '=', filter.transformId);
    if (filter.orchestratorRunId) query = query.where('orchestrator_run_id', '=', filter.orchestratorRunId);
    return query.orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute();
  },

  set: (trx: TenantTransaction, id: string, values: { status: GenericRunStatus; message?: string | null; metadata?: Record<string, unknown>; started_at?: Date; finished_at?: Date }) =>
    trx.updateTable('transform_generic_runs').set({ ...values, ...(values.metadata ? { metadata: JSON.stringify(values.metadata) } : {}) } as never)
      .where('id', '=', sql<string>`${id}::bigint`).execute(),
};

export type GenericRunRow = NonNullable<Awaited<ReturnType<typeof genericRunsStore.find>>>;
