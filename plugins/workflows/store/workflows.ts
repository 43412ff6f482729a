// kysely queries for the workflows tables. Both are tenant-owned: every query
// takes a tenant transaction (row-level security scopes it to the tenant).
import { sql } from 'kysely';
import type { KeysetPage, TenantTransaction } from 'agent-platform/sdk';
import type { ExecutionState, ExecutionStatus, Step, WorkflowDefinition } from '../../../workflows/engine/index.ts';
import type { WorkflowOrigin } from '../api.ts';
import './tables.ts';

const definitionColumns = ['name', 'description', 'steps', 'version', 'created_at', 'updated_at'] as const;

export const definitionsStore = {
  insert: (trx: TenantTransaction, values: { tenant_id: string; name: string; description: string; steps: Step[] }) =>
    trx.insertInto('workflow_definitions')
      .values({ ...values, steps: JSON.stringify(values.steps) })
      .returning([...definitionColumns])
      .executeTakeFirstOrThrow(),

  list: async (trx: TenantTransaction, skip: number, limit: number) => {
    const [items, count] = await Promise.all([
      trx.selectFrom('workflow_definitions').select([...definitionColumns]).orderBy('name').offset(skip).limit(limit).execute(),
      trx.selectFrom('workflow_definitions').select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  },

  get: (trx: TenantTransaction, name: string) =>
    trx.selectFrom('workflow_definitions').select([...definitionColumns]).where('name', '=', name).executeTakeFirst(),

  getMany: (trx: TenantTransaction, names: string[]) =>
    names.length === 0
      ? Promise.resolve([])
      : trx.selectFrom('workflow_definitions').select([...definitionColumns]).where('name', 'in', names).execute(),

  /** Locks the definition while an update compares and writes it. */
  lock: (trx: TenantTransaction, name: string) =>
    trx.selectFrom('workflow_definitions').select([...definitionColumns]).where('name', '=', name).forUpdate().executeTakeFirst(),

  update: (trx: TenantTransaction, name: string, values: { description: string; steps: Step[] }) =>
    trx.updateTable('workflow_definitions')
      .set({
        description: values.description,
        steps: JSON.stringify(values.steps),
        version: sql`version + 1`,
        updated_at: sql`now()`,
      })
      .where('name', '=', name)
      .returning([...definitionColumns])
      .executeTakeFirstOrThrow(),

  delete: (trx: TenantTransaction, name: string) =>
    trx.deleteFrom('workflow_definitions').where('name', '=', name).returning(['name', 'version']).executeTakeFirst(),
};

export interface ExecutionFilter {
  status?: ExecutionStatus;
  workflow?: string;
}

const summaryColumns = [
  'id', 'workflow_name', 'workflow_version', 'status', 'origin', 'error', 'created_at', 'updated_at', 'finished_at',
] as const;
const fullColumns = [...summaryColumns, 'inputs', 'state', 'step_seq'] as const;

export type ExecutionRow = NonNullable<Awaited<ReturnType<typeof executionsStore.get>>>;

function filtered(trx: TenantTransaction, filter: ExecutionFilter) {
  let query = trx.selectFrom('workflow_executions');
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.workflow) query = query.where('workflow_name', '=', filter.workflow);
  return query;
}

export interface NewExecution {
  id: string;
  tenant_id: string;
  workflow_name: string;
  workflow_version: number;
  /** The definition snapshot, serialized (shared by the executions of one batch). */
  definitionJson: string;
  inputs: Record<string, unknown>;
  origin: WorkflowOrigin;
  /** Set when the first advance was taken at insert (see execution/start-batch.ts). */
  status?: ExecutionStatus;
  state?: ExecutionState;
  step_seq?: number;
}

export const executionsStore = {
  /** Many executions in one statement (a batch of starts). */
  /** The insert of new executions (at least one), not yet sent: it goes with their first jobs. */
  insertManyQuery: (trx: TenantTransaction, rows: NewExecution[]) =>
    trx.insertInto('workflow_executions')
      .values(rows.map(({ definitionJson, ...row }) => ({
        id: row.id,
        tenant_id: row.tenant_id,
        workflow_name: row.workflow_name,
        workflow_version: row.workflow_version,
        definition: definitionJson,
        inputs: JSON.stringify(row.inputs),
        origin: JSON.stringify(row.origin),
        status: row.status ?? 'running',
        state: row.state ? JSON.stringify(row.state) : null,
        step_seq: row.step_seq ?? 0,
      }))),

  get: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('workflow_executions').select([...fullColumns]).where('id', '=', id).executeTakeFirst(),

  /** The row with its definition snapshot, locked until the transaction ends: state changes are serialized here. */
  lock: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('workflow_executions').select([...fullColumns, 'definition']).where('id', '=', id).forUpdate().executeTakeFirst(),

  /** The update of a state change, not yet sent (the runner sends it with the event announcing the end, if any). */
  saveQuery: (trx: TenantTransaction, id: string, values: {
    status: ExecutionStatus; state: ExecutionState; step_seq: number; error: string | null; finished: boolean;
  }) =>
    trx.updateTable('workflow_executions')
      .set({
        status: values.status,
        state: JSON.stringify(values.state),
        step_seq: values.step_seq,
        error: values.error,
        updated_at: sql`now()`,
        ...(values.finished ? { finished_at: sql`now()` } : {}),
      })
      .where('id', '=', id),

  /** Newest first, offset paging (REST). */
  list: async (trx: TenantTransaction, filter: ExecutionFilter, skip: number, limit: number) => {
    const [items, count] = await Promise.all([
      filtered(trx, filter).select([...summaryColumns]).orderBy('created_at', 'desc').orderBy('id', 'desc').offset(skip).limit(limit).execute(),
      filtered(trx, filter).select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  },

  /**
   * A keyset page of executions, newest first (GraphQL): forward, those older
   * than the cursor execution; backward, the newer ones, nearest first (that
   * is oldest first). The cursor row's own timestamp is compared in SQL: a
   * JavaScript Date would drop Postgres' microseconds and skip rows created in
   * the same millisecond.
   */
  page: (trx: TenantTransaction, filter: ExecutionFilter, page: KeysetPage<string>) => {
    const forward = page.direction === 'forward';
    let query = filtered(trx, filter).select([...fullColumns]);
    if (page.cursor !== undefined) {
      const cursor = sql`(SELECT c.created_at, c.id FROM workflow_executions c WHERE c.id = ${page.cursor}::uuid)`;
      query = query.where(forward ? sql<boolean>`(created_at, id) < ${cursor}` : sql<boolean>`(created_at, id) > ${cursor}`);
    }
    const order = forward ? 'desc' : 'asc';
    return query.orderBy('created_at', order).orderBy('id', order).limit(page.limit).execute();
  },

  /** How many executions the filter selects. */
  count: async (trx: TenantTransaction, filter: ExecutionFilter) =>
    Number((await filtered(trx, filter).select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
};
