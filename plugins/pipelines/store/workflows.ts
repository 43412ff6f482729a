// SQL of the orchestrator workflows that are not pipeline runs, and of the
// snapshot sensor's cursor, in tenant transactions.
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import type { RunStatus } from './tables.ts';
import './tables.ts';

export const workflowsStore = {
  insert: (trx: TenantTransaction, row: { tenant_id: string; kind: 'schema-match' | 'transform'; status: RunStatus; input: Record<string, unknown>; result: Record<string, unknown> | null; error: string | null; created_by: string | null; finished: boolean }) =>
    trx.insertInto('pipeline_workflows').values({
      tenant_id: row.tenant_id, kind: row.kind, status: row.status, input: JSON.stringify(row.input), result: row.result ? JSON.stringify(row.result) : null,
      error: row.error, created_by: row.created_by, finished_at: row.finished ? new Date() : null,
    }).returningAll().executeTakeFirstOrThrow(),

  find: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('pipeline_workflows').selectAll().where('id', '=', id).executeTakeFirst(),

  /** A terminal status with its result, once (a workflow already settled keeps its first). */
  settle: (trx: TenantTransaction, id: string, status: RunStatus, result: Record<string, unknown>, error: string | null) =>
    trx.updateTable('pipeline_workflows').set({ status, result: JSON.stringify(result), error, finished_at: sql`now()` as never })
      .where('id', '=', id).where('status', '=', 'running').execute(),
};

export const sensorStore = {
  /**
   * The cursor, locked (created at the stream's start on first use): the
   * position of the last event read, or the number of a cursor kept before positions.
   */
  lock: async (trx: TenantTransaction, tenantId: string): Promise<string | number> => {
    await trx.insertInto('pipeline_sensor_cursors').values({ tenant_id: tenantId, last_seq: 0 }).onConflict((oc) => oc.column('tenant_id').doNothing()).execute();
    const row = await trx.selectFrom('pipeline_sensor_cursors').select([sql<number>`last_seq::float8`.as('last_seq'), 'last_position'])
      .where('tenant_id', '=', tenantId).forUpdate().executeTakeFirstOrThrow();
    return row.last_position ?? row.last_seq;
  },
  move: (trx: TenantTransaction, tenantId: string, last: { seq: number; position: string }) =>
    trx.updateTable('pipeline_sensor_cursors').set({ last_seq: last.seq, last_position: last.position, updated_at: sql`now()` as never })
      .where('tenant_id', '=', tenantId).execute(),
};

export type WorkflowRow = NonNullable<Awaited<ReturnType<typeof workflowsStore.find>>>;
