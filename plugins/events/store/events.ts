// kysely queries for the stream: the events, and the dispatcher's cursor (a
// position, see stream/position.ts). Every function takes a tenant transaction.
import { type OperationNodeSource, sql } from 'kysely';
import type { KeysetPage, TenantTransaction } from 'agent-platform/sdk';
import type { EventRow, TriggerRow } from './tables.ts';
import type { NewDispatch } from './triggers.ts';
import { STREAM_START, type StreamPosition } from '../stream/position.ts';

type Trx = TenantTransaction;

/** A triggers row as json_agg writes it: timestamps are strings. */
type JsonTrigger = Omit<TriggerRow, 'next_fire_at' | 'deadman_deadline' | 'last_fired_at' | 'created_at' | 'updated_at'> &
  Record<'next_fire_at' | 'deadman_deadline' | 'last_fired_at' | 'created_at' | 'updated_at', string | null>;

const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

function triggerFromJson(row: JsonTrigger): TriggerRow {
  return {
    ...row,
    next_fire_at: dateOrNull(row.next_fire_at),
    deadman_deadline: dateOrNull(row.deadman_deadline),
    last_fired_at: dateOrNull(row.last_fired_at),
    created_at: new Date(row.created_at!),
    updated_at: new Date(row.updated_at!),
  };
}
const eventColumns = ['tenant_id', 'seq', 'xid', 'id', 'type', 'source', 'time', 'data', 'chaindepth', 'traceparent'] as const;

/** A type filter: exact, `prefix*` or `*` (everything). */
function typeCondition(pattern: string | undefined) {
  if (!pattern || pattern === '*') return sql<boolean>`true`;
  if (pattern.endsWith('*')) return sql<boolean>`starts_with(type, ${pattern.slice(0, -1)})`;
  return sql<boolean>`type = ${pattern}`;
}

/** The conditions of a list of events: a type (pattern) and a lower bound of their time. */
export interface EventFilter {
  type?: string;
  /** At or after this time. */
  timeAfter?: Date;
}

function filtered(trx: Trx, filter: EventFilter) {
  let query = trx.selectFrom('events').where(typeCondition(filter.type));
  if (filter.timeAfter) query = query.where('time', '>=', filter.timeAfter);
  return query;
}

/**
 * Events of the tenant after a position. The tenant equality and the row
 * comparison on (xid, seq) make one range of the (tenant_id, xid, seq) index
 * (a three-column row comparison would scan the tenant's whole range).
 */
const pastPosition = (tenantId: string, position: StreamPosition) =>
  sql<boolean>`tenant_id = ${tenantId} AND (xid, seq) > (${position.xid}::xid8, ${position.seq}::bigint)`;

/** Read only below the visibility horizon: every transaction older than it has ended. */
const belowHorizon = sql<boolean>`xid < pg_snapshot_xmin(pg_current_snapshot())`;

export const cursorsStore = {
  /**
   * Locks the dispatcher's cursor and reads the batch after it, below the
   * visibility horizon, in one round trip; `waiting` tells whether committed
   * events lie beyond the horizon (a transaction older than them still runs:
   * read again shortly). A retried or concurrent dispatch waits on the lock
   * and then reads from where the other left off.
   */
  async lockAndRead(trx: Trx, tenantId: string, limit: number): Promise<{ cursor: StreamPosition; rows: EventRow[]; listening: TriggerRow[]; waiting: boolean }> {
    for (;;) {
      // The triggers that listen to the stream ride along on the first row (a
      // round trip less per batch); Postgres evaluates that subquery once.
      const { rows } = await sql<{ cursor_xid: string; cursor_seq: number; waiting: boolean | null; listening: JsonTrigger[] | null } & { [K in keyof EventRow]: EventRow[K] | null }>`
        WITH c AS (SELECT dispatched_xid, dispatched_seq FROM event_cursors WHERE tenant_id = ${tenantId} FOR UPDATE),
        h AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon)
        SELECT c.dispatched_xid AS cursor_xid, c.dispatched_seq AS cursor_seq,
          e.tenant_id, e.seq, e.xid, e.id, e.type, e.source, e.time, e.data, e.chaindepth, e.traceparent,
          CASE WHEN e.rn IS NULL OR e.rn = 1 THEN EXISTS (SELECT 1 FROM events w WHERE w.tenant_id = ${tenantId} AND w.xid >= h.horizon) END AS waiting,
          CASE WHEN e.rn = 1 THEN (
            SELECT coalesce(json_agg(t ORDER BY t.name), '[]') FROM triggers t WHERE t.active AND t.kind IN ('reactive', 'deadman')
          ) END AS listening
        FROM c CROSS JOIN h LEFT JOIN LATERAL (
          SELECT *, row_number() OVER (ORDER BY xid, seq) AS rn FROM (
            SELECT * FROM events
            WHERE tenant_id = ${tenantId} AND (xid, seq) > (c.dispatched_xid, c.dispatched_seq) AND xid < h.horizon
            ORDER BY xid, seq LIMIT ${limit}
          ) batch
        ) e ON true
        ORDER BY e.xid, e.seq`.execute(trx);
      if (rows.length === 0) {
        await cursorsStore.create(trx, tenantId);
        continue;
      }
      const events = rows.filter((row) => row.seq !== null).map(({ cursor_xid, cursor_seq, waiting, listening, ...event }) => event) as EventRow[];
      return {
        cursor: { xid: rows[0].cursor_xid, seq: rows[0].cursor_seq },
        rows: events,
        listening: (rows[0].listening ?? []).map(triggerFromJson),
        waiting: rows[0].waiting ?? false,
      };
    }
  },
  create: (trx: Trx, tenantId: string) =>
    trx.insertInto('event_cursors').values({ tenant_id: tenantId }).onConflict((oc) => oc.column('tenant_id').doNothing()).execute(),
  /**
   * Moving the cursor past a batch, not yet sent: the insert of the batch's
   * dispatch records and the cursor's update (to go with other statements, see
   * JobsApi.enqueueMany's `alongside`).
   */
  advanceQueries: (tenantId: string, position: StreamPosition, dispatches: NewDispatch[]) => [
    sql`INSERT INTO trigger_dispatches (tenant_id, trigger_name, origin, status, event_id, event_seq, dedup_key, execution_id, error)
      SELECT tenant_id, trigger_name, origin, status, event_id, event_seq, dedup_key, execution_id, error
      FROM jsonb_to_recordset(${JSON.stringify(dispatches)}::jsonb) AS r(tenant_id text, trigger_name text, origin text, status text,
        event_id text, event_seq bigint, dedup_key text, execution_id text, error text)`,
    sql`UPDATE event_cursors SET dispatched_xid = ${position.xid}::xid8, dispatched_seq = ${position.seq}, dispatched_at = now()
      WHERE tenant_id = ${tenantId}`,
  ],
  /** Moves the cursor past a batch; the batch's dispatch records go in the same statement. */
  async advance(trx: Trx, tenantId: string, position: StreamPosition, dispatches: NewDispatch[] = []): Promise<void> {
    const [records, cursor] = cursorsStore.advanceQueries(tenantId, position, dispatches);
    await sql`WITH d AS (${records}) ${cursor}`.execute(trx);
  },
  async get(trx: Trx, tenantId: string): Promise<StreamPosition> {
    const row = await trx.selectFrom('event_cursors').select(['dispatched_xid', 'dispatched_seq']).where('tenant_id', '=', tenantId).executeTakeFirst();
    return row ? { xid: row.dispatched_xid, seq: row.dispatched_seq } : STREAM_START;
  },
};

export const eventsStore = {
  /**
   * Appends an event in one statement: it takes the next number and records
   * its transaction's id. Nothing is locked that another emitter waits for.
   */
  async append(trx: Trx, event: Omit<EventRow, 'seq' | 'xid'>, alongside?: OperationNodeSource): Promise<{ seq: number; xid: string }> {
    const insert = trx.insertInto('events').values({ ...event, data: JSON.stringify(event.data) }).returning(['seq', 'xid']);
    if (!alongside) return insert.executeTakeFirstOrThrow();
    // The caller's change goes in the same statement (a data-modifying CTE runs whether or not it is read).
    const { rows } = await sql<{ seq: number; xid: string }>`WITH alongside AS (${alongside}) ${insert}`.execute(trx);
    return rows[0];
  },

  /** Events after a position in stream order, below the visibility horizon (`events tail`, the pipelines' sensor). */
  after: (trx: Trx, tenantId: string, position: StreamPosition, limit: number, type?: string): Promise<EventRow[]> =>
    trx.selectFrom('events').select([...eventColumns]).where(pastPosition(tenantId, position)).where(belowHorizon).where(typeCondition(type))
      .orderBy('xid').orderBy('seq').limit(limit).execute(),

  /**
   * The position just after the event numbered `seq` (or, where there is no
   * such event, the last one numbered below it): where a reader that had
   * reached that number goes on.
   */
  async positionOfSeq(trx: Trx, seq: number): Promise<StreamPosition> {
    const row = await trx.selectFrom('events').select('xid').where('seq', '<=', seq).orderBy('seq', 'desc').limit(1).executeTakeFirst();
    return row ? { xid: row.xid, seq } : STREAM_START;
  },

  /** The position of the stream's last readable event (where a tail starts by default). */
  async end(trx: Trx): Promise<StreamPosition> {
    const row = await trx.selectFrom('events').select(['xid', 'seq']).where(belowHorizon).orderBy('xid', 'desc').orderBy('seq', 'desc').limit(1).executeTakeFirst();
    return row ?? STREAM_START;
  },

  /** Whether committed events lie after a position (undispatched events, for timers and the sweep). */
  async anyAfter(trx: Trx, tenantId: string, position: StreamPosition): Promise<boolean> {
    const row = await trx.selectFrom('events').select('seq').where(pastPosition(tenantId, position)).limit(1).executeTakeFirst();
    return row !== undefined;
  },

  /** The newest `limit` events, optionally of a type (pattern). */
  newest: (trx: Trx, options: { limit: number; type?: string }): Promise<EventRow[]> =>
    trx.selectFrom('events').select([...eventColumns]).where(typeCondition(options.type)).orderBy('seq', 'desc').limit(options.limit).execute(),

  /**
   * A keyset page of the list newest first (by sequence number): forward,
   * the events before the cursor's, newest first; backward, those after it,
   * oldest first.
   */
  page: (trx: Trx, filter: EventFilter, page: KeysetPage<number>): Promise<EventRow[]> => {
    const forward = page.direction === 'forward';
    let query = filtered(trx, filter).select([...eventColumns]);
    if (page.cursor !== undefined) query = query.where('seq', forward ? '<' : '>', page.cursor);
    return query.orderBy('seq', forward ? 'desc' : 'asc').limit(page.limit).execute();
  },

  countOf: async (trx: Trx, filter: EventFilter): Promise<number> =>
    Number((await filtered(trx, filter).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n),

  /** The events of these sequence numbers (those still kept). */
  bySeqs: (trx: Trx, seqs: readonly number[]): Promise<EventRow[]> =>
    seqs.length === 0 ? Promise.resolve([]) : trx.selectFrom('events').select([...eventColumns]).where('seq', 'in', [...seqs]).execute(),

  /** Oldest first from a time (backfill scans). */
  from: (trx: Trx, since: Date | undefined, limit: number): Promise<EventRow[]> => {
    let query = trx.selectFrom('events').select([...eventColumns]);
    if (since) query = query.where('time', '>=', since);
    return query.orderBy('seq').limit(limit).execute();
  },

  /** How many events the stream holds. */
  count: (trx: Trx): Promise<number> => eventsStore.countOf(trx, {}),

  /** Removes dispatched events older than a time; returns how many. */
  async deleteDispatchedBefore(trx: Trx, tenantId: string, before: Date, cursor: StreamPosition): Promise<number> {
    const result = await trx.deleteFrom('events').where('time', '<', before).where(sql<boolean>`NOT (${pastPosition(tenantId, cursor)})`).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};

/**
 * Whether transactions other than the caller's are running that were running
 * at a moment: with `waitingFor` (a transaction id from an earlier call), any
 * older than it; without, any at all (then `waitFor` is the id that later
 * calls wait for). `now` is what a later call should pass.
 */
export async function transactionsRunning(trx: Trx, waitingFor?: string): Promise<{ waitFor?: string; now: string }> {
  const { rows } = await sql<{ xmin: string; xmax: string; others: boolean }>`
    SELECT pg_snapshot_xmin(s)::text AS xmin, pg_snapshot_xmax(s)::text AS xmax, EXISTS (SELECT 1 FROM pg_snapshot_xip(s)) AS others
    FROM pg_current_snapshot() AS s`.execute(trx);
  const { xmin, xmax, others } = rows[0];
  if (waitingFor !== undefined) return BigInt(xmin) >= BigInt(waitingFor) ? { now: waitingFor } : { waitFor: waitingFor, now: waitingFor };
  return others ? { waitFor: xmax, now: xmax } : { now: xmax };
}
