// The AI plugin's SQL: a sample of a readable dataset's rows (the lake's own
// as-of SELECT, in a tenant transaction: row-level security applies) and the
// compose-pipeline executions.
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import type { CompositionStatus } from './tables.ts';
import './tables.ts';

const columns = ['id', 'status', 'request', 'result', 'error', 'attempts', 'created_by', 'created_at', 'finished_at'] as const;

export const aiStore = {
  /** `select` is the lakehouse's asOf() SQL for a dataset the tenant may read. */
  sampleRows: async (trx: TenantTransaction, select: string, limit: number) =>
    (await sql<Record<string, unknown>>`SELECT * FROM (${sql.raw(select)}) AS sample LIMIT ${limit}`.execute(trx)).rows,

  insertComposition: (trx: TenantTransaction, tenantId: string, request: Record<string, unknown>, createdBy: string | null) =>
    trx.insertInto('pipelines_ai_compositions').values({ tenant_id: tenantId, request: JSON.stringify(request), created_by: createdBy })
      .returning(columns).executeTakeFirstOrThrow(),

  findComposition: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('pipelines_ai_compositions').select(columns).where('id', '=', id).executeTakeFirst(),

  /** Claims a queued execution, or takes over a running one from an earlier attempt (its worker died); undefined when another attempt owns it or it ended. */
  markRunning: (trx: TenantTransaction, id: string, attempt: number) =>
    trx.updateTable('pipelines_ai_compositions').set({ status: 'running', attempts: attempt }).where('id', '=', id)
      .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('attempts', '<', attempt)])]))
      .returning(columns).executeTakeFirst(),

  /** Ends an execution still running under `attempt` (null: whichever attempt, the dead letter); false when it had ended or another attempt owns it. */
  finish: async (trx: TenantTransaction, id: string, attempt: number | null, status: CompositionStatus, outcome: { result?: Record<string, unknown>; error?: { code: string; message: string } }) => {
    let query = trx.updateTable('pipelines_ai_compositions')
      .set({ status, result: outcome.result ? JSON.stringify(outcome.result) : null, error: outcome.error ? JSON.stringify(outcome.error) : null, finished_at: sql`now()` as never })
      .where('id', '=', id).where('status', 'in', ['queued', 'running']);
    if (attempt !== null) query = query.where('attempts', '=', attempt);
    return (await query.executeTakeFirst()).numUpdatedRows > 0n;
  },
};

export type CompositionRow = NonNullable<Awaited<ReturnType<typeof aiStore.findComposition>>>;
