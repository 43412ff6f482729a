// kysely queries for triggers, their dispatches, dedup windows and CLI
// backfill requests. Every function takes a tenant transaction.
import { sql, type Insertable } from 'kysely';
import type { Actor, KeysetPage, TenantTransaction } from 'agent-platform/sdk';
import type { DispatchOrigin, DispatchRow, DispatchStatus, TriggerDispatchesTable, TriggerKind, TriggerRow } from './tables.ts';

type Trx = TenantTransaction;
const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/** A trigger's definition as written by the service (state columns are set apart). */
export interface TriggerDefinition {
  name: string;
  kind: TriggerKind;
  event_type: string;
  event_filter: Record<string, unknown> | null;
  target_type: 'workflow';
  target_name: string;
  input_mapping: Record<string, unknown> | null;
  active: boolean;
  dedup_key: string | null;
  dedup_window_seconds: number;
  ignore_own_results: boolean;
  schedule_config: Record<string, unknown> | null;
  deadman_config: Record<string, unknown> | null;
}

export interface TriggerState {
  active?: boolean;
  next_fire_at?: Date | null;
  deadman_deadline?: Date | null;
  last_fired_at?: Date | null;
}

const definitionValues = (d: TriggerDefinition) => ({
  ...d,
  event_filter: json(d.event_filter),
  input_mapping: json(d.input_mapping),
  schedule_config: json(d.schedule_config),
  deadman_config: json(d.deadman_config),
});

export interface TriggerListFilter {
  activeOnly?: boolean;
  /** Triggers whose event_type is this or a pattern matching it. */
  eventType?: string;
}

function listQuery(trx: Trx, filter: TriggerListFilter) {
  let query = trx.selectFrom('triggers');
  if (filter.activeOnly) query = query.where('active', '=', true);
  if (filter.eventType) {
    const type = filter.eventType;
    query = query.where(sql<boolean>`(event_type = ${type} OR event_type = '*'
      OR (right(event_type, 1) = '*' AND starts_with(${type}, left(event_type, -1))))`);
  }
  return query;
}

export const triggersStore = {
  insert: (trx: Trx, tenantId: string, d: TriggerDefinition, actsFor: Actor | undefined): Promise<TriggerRow> =>
    trx.insertInto('triggers').values({ tenant_id: tenantId, ...definitionValues(d), acts_for: json(actsFor) }).returningAll().executeTakeFirstOrThrow(),

  update: (trx: Trx, name: string, d: TriggerDefinition, actsFor: Actor | undefined): Promise<TriggerRow> =>
    trx.updateTable('triggers').set({ ...definitionValues(d), acts_for: json(actsFor), updated_at: sql`now()` }).where('name', '=', name)
      .returningAll().executeTakeFirstOrThrow(),

  /**
   * Saves runtime state; with `listenFromNow` (created or made active) the
   * trigger listens to the events committed after this statement.
   */
  setState: (trx: Trx, name: string, state: TriggerState, listenFromNow = false) =>
    trx.updateTable('triggers')
      .set(listenFromNow ? { ...state, listen_after_seq: 0, listen_after_snapshot: sql<string>`pg_current_snapshot()` } : state)
      .where('name', '=', name).execute(),

  get: (trx: Trx, name: string): Promise<TriggerRow | undefined> =>
    trx.selectFrom('triggers').selectAll().where('name', '=', name).executeTakeFirst(),

  /** Locks the row: timer jobs and updates of one trigger take turns. */
  lock: (trx: Trx, name: string): Promise<TriggerRow | undefined> =>
    trx.selectFrom('triggers').selectAll().where('name', '=', name).forUpdate().executeTakeFirst(),

  async list(trx: Trx, filter: TriggerListFilter, skip: number, limit: number) {
    const [items, count] = await Promise.all([
      listQuery(trx, filter).selectAll().orderBy('name').offset(skip).limit(limit).execute(),
      listQuery(trx, filter).select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  },

  /** A keyset page by name (GraphQL connections): forward ascending after the cursor, backward descending before it. */
  page: (trx: Trx, filter: TriggerListFilter, page: KeysetPage<string>): Promise<TriggerRow[]> => {
    const forward = page.direction === 'forward';
    let query = listQuery(trx, filter).selectAll();
    if (page.cursor !== undefined) query = query.where('name', forward ? '>' : '<', page.cursor);
    return query.orderBy('name', forward ? 'asc' : 'desc').limit(page.limit).execute();
  },

  count: async (trx: Trx, filter: TriggerListFilter): Promise<number> =>
    Number((await listQuery(trx, filter).select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),

  delete: async (trx: Trx, name: string): Promise<boolean> =>
    (await trx.deleteFrom('triggers').where('name', '=', name).executeTakeFirst()).numDeletedRows > 0n,
};

/** A dispatch record to insert (its id and time come from the database). */
export type NewDispatch = Omit<Insertable<TriggerDispatchesTable>, 'id' | 'created_at'>;

export const dispatchesStore = {
  insertMany: async (trx: Trx, rows: NewDispatch[]) => {
    if (rows.length > 0) await trx.insertInto('trigger_dispatches').values(rows).execute();
  },

  /** Keyset page of one trigger's dispatches, newest first. */
  page: (trx: Trx, triggerName: string, page: KeysetPage<number>): Promise<DispatchRow[]> => {
    const forward = page.direction === 'forward';
    let query = trx.selectFrom('trigger_dispatches').selectAll().where('trigger_name', '=', triggerName);
    if (page.cursor !== undefined) query = query.where('id', forward ? '<' : '>', page.cursor);
    return query.orderBy('id', forward ? 'desc' : 'asc').limit(page.limit).execute();
  },

  count: async (trx: Trx, triggerName: string): Promise<number> =>
    Number((await trx.selectFrom('trigger_dispatches').select(trx.fn.countAll<number>().as('n')).where('trigger_name', '=', triggerName)
      .executeTakeFirstOrThrow()).n),

  /** The newest `limit` dispatches of each of several triggers, in one query (a DataLoader batch). */
  async recentOf(trx: Trx, triggerNames: readonly string[], limit: number): Promise<DispatchRow[]> {
    if (triggerNames.length === 0) return [];
    const { rows } = await sql<DispatchRow>`
      SELECT d.* FROM unnest(${[...triggerNames]}::text[]) AS t(name)
      CROSS JOIN LATERAL (
        SELECT * FROM trigger_dispatches WHERE trigger_name = t.name ORDER BY id DESC LIMIT ${limit}
      ) d`.execute(trx);
    return rows;
  },

  /**
   * The chain depth of the event that started this execution (through a
   * trigger or a backfill); undefined when no event started it (an API call,
   * a schedule), or its records are past retention.
   */
  async causeDepthOf(trx: Trx, executionId: string): Promise<number | undefined> {
    const { rows } = await sql<{ depth: number | null }>`
      SELECT max(e.chaindepth) AS depth FROM trigger_dispatches d
      JOIN events e ON e.tenant_id = d.tenant_id AND e.seq = d.event_seq
      WHERE d.execution_id = ${executionId} AND d.status = 'started' AND d.event_seq IS NOT NULL`.execute(trx);
    return rows[0]?.depth ?? undefined;
  },

  /** Which of these triggers started this execution. */
  async startersOf(trx: Trx, executionId: string): Promise<Set<string>> {
    const rows = await trx.selectFrom('trigger_dispatches').select('trigger_name').where('execution_id', '=', executionId).execute();
    return new Set(rows.map((row) => row.trigger_name));
  },

  deleteBefore: async (trx: Trx, before: Date): Promise<number> =>
    Number((await trx.deleteFrom('trigger_dispatches').where('created_at', '<', before).executeTakeFirst()).numDeletedRows),
};

export const dedupStore = {
  /**
   * Claims a dedup key for an event time: true when no window holds it (the
   * event starts a workflow and opens a new window), false when the window
   * opened by an earlier event covers this one. Events older than the window's
   * start never reopen it, so a backfill over already dispatched events is idempotent.
   */
  async claim(trx: Trx, row: { tenant_id: string; trigger_name: string; dedup_key: string; time: Date; event_id: string; windowSeconds: number }) {
    const { rows } = await sql<{ claimed: number }>`
      INSERT INTO trigger_dedup AS d (tenant_id, trigger_name, dedup_key, window_start, event_id)
      VALUES (${row.tenant_id}, ${row.trigger_name}, ${row.dedup_key}, ${row.time}, ${row.event_id})
      ON CONFLICT (tenant_id, trigger_name, dedup_key) DO UPDATE
        SET window_start = excluded.window_start, event_id = excluded.event_id
        WHERE excluded.window_start >= d.window_start + make_interval(secs => ${row.windowSeconds})
      RETURNING 1 AS claimed`.execute(trx);
    return rows.length > 0;
  },
  clear: (trx: Trx, triggerName: string) => trx.deleteFrom('trigger_dedup').where('trigger_name', '=', triggerName).execute(),
  deleteBefore: async (trx: Trx, before: Date): Promise<number> =>
    Number((await trx.deleteFrom('trigger_dedup').where('window_start', '<', before).executeTakeFirst()).numDeletedRows),
};

export const backfillsStore = {
  insert: (trx: Trx, row: { id: string; tenant_id: string; trigger_name: string; request: Record<string, unknown> }) =>
    trx.insertInto('trigger_backfills').values({ ...row, request: JSON.stringify(row.request) }).execute(),
  finish: (trx: Trx, id: string, outcome: { result?: Record<string, unknown>; error?: string }) =>
    trx.updateTable('trigger_backfills')
      .set({ result: json(outcome.result), error: outcome.error ?? null, finished_at: sql`now()` })
      .where('id', '=', id).execute(),
  get: (trx: Trx, id: string) => trx.selectFrom('trigger_backfills').selectAll().where('id', '=', id).executeTakeFirst(),
};
