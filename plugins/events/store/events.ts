// kysely queries for the stream: per-tenant counters, the dispatcher's cursor
// and the events themselves. Every function takes a tenant transaction.
import { sql } from 'kysely';
import type { KeysetPage, TenantTransaction } from 'agent-platform/sdk';
import type { EventRow, TriggerRow } from './tables.ts';
import type { NewDispatch } from './triggers.ts';

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
const eventColumns = ['tenant_id', 'seq', 'id', 'type', 'source', 'time', 'data', 'chaindepth'] as const;

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

export const streamsStore = {
  /**
   * The next sequence number of the tenant's stream. The row stays locked
   * until the caller's transaction ends, so numbers commit gap-free and in order.
   */
  /**
   * Appends an event in one round trip: takes the next sequence number, sets
   * dispatch_queued, inserts the event. Returns the number and whether a
   * dispatcher was already queued (if not, the caller enqueues one).
   */
  async append(trx: Trx, event: Omit<EventRow, 'seq'>): Promise<{ seq: number; dispatchQueued: boolean }> {
    const { rows } = await sql<{ seq: number; queued_before: boolean }>`
      WITH s AS (
        INSERT INTO event_streams AS s (tenant_id, last_seq, dispatch_queued) VALUES (${event.tenant_id}, 1, true)
        ON CONFLICT (tenant_id) DO UPDATE SET last_seq = s.last_seq + 1, dispatch_queued = true, queued_before = s.dispatch_queued
        RETURNING last_seq, queued_before
      ), e AS (
        INSERT INTO events (tenant_id, seq, id, type, source, time, data, chaindepth)
        SELECT ${event.tenant_id}, last_seq, ${event.id}, ${event.type}, ${event.source}, ${event.time}, ${JSON.stringify(event.data)}::jsonb,
          ${event.chaindepth} FROM s
      )
      SELECT last_seq AS seq, queued_before FROM s`.execute(trx);
    return { seq: rows[0].seq, dispatchQueued: rows[0].queued_before };
  },
  /** Waits for emitters in flight (they hold the row), then reads the last number. */
  async lockLastSeq(trx: Trx, tenantId: string): Promise<number> {
    const row = await trx.selectFrom('event_streams').select('last_seq').where('tenant_id', '=', tenantId).forUpdate().executeTakeFirst();
    return row?.last_seq ?? 0;
  },
  async lastSeq(trx: Trx, tenantId: string): Promise<number> {
    const row = await trx.selectFrom('event_streams').select('last_seq').where('tenant_id', '=', tenantId).executeTakeFirst();
    return row?.last_seq ?? 0;
  },
};

export const cursorsStore = {
  /**
   * Locks the dispatcher's cursor and reads the batch after it, in one round
   * trip. A retried or concurrent dispatch waits on the lock and then reads
   * from where the other left off.
   */
  async lockAndRead(trx: Trx, tenantId: string, limit: number): Promise<{ cursor: number; rows: EventRow[]; listening: TriggerRow[] }> {
    for (;;) {
      // The triggers that listen to the stream ride along on the first row (a
      // round trip less per batch); Postgres evaluates that subquery once.
      const { rows } = await sql<{ cursor: number; rn: number | null; listening: JsonTrigger[] | null } & { [K in keyof EventRow]: EventRow[K] | null }>`
        WITH c AS (SELECT dispatched_seq FROM event_cursors WHERE tenant_id = ${tenantId} FOR UPDATE)
        SELECT c.dispatched_seq AS cursor, e.tenant_id, e.seq, e.id, e.type, e.source, e.time, e.data, e.chaindepth,
          CASE WHEN e.rn = 1 THEN (
            SELECT coalesce(json_agg(t ORDER BY t.name), '[]') FROM triggers t WHERE t.active AND t.kind IN ('reactive', 'deadman')
          ) END AS listening
        FROM c LEFT JOIN LATERAL (
          SELECT *, row_number() OVER (ORDER BY seq) AS rn FROM (
            SELECT * FROM events WHERE tenant_id = ${tenantId} AND seq > c.dispatched_seq ORDER BY seq LIMIT ${limit}
          ) batch
        ) e ON true
        ORDER BY e.seq`.execute(trx);
      if (rows.length === 0) {
        await cursorsStore.create(trx, tenantId);
        continue;
      }
      const events = rows.filter((row) => row.seq !== null) as EventRow[];
      return { cursor: rows[0].cursor, rows: events, listening: (rows[0].listening ?? []).map(triggerFromJson) };
    }
  },
  create: (trx: Trx, tenantId: string) =>
    trx.insertInto('event_cursors').values({ tenant_id: tenantId }).onConflict((oc) => oc.column('tenant_id').doNothing()).execute(),
  /**
   * Moves the cursor; with `close`, also clears the stream's dispatch_queued
   * flag if nothing was emitted past the cursor. That UPDATE waits for
   * emitters in flight (they hold the stream row): one that committed while
   * the flag was set did not enqueue a dispatcher, so its event must be seen
   * here, and then the answer is false and draining goes on.
   */
  async advance(trx: Trx, tenantId: string, seq: number, close: boolean, dispatches: NewDispatch[] = []): Promise<boolean> {
    // The batch's dispatch records go in the same statement.
    const records = sql`INSERT INTO trigger_dispatches
      (tenant_id, trigger_name, origin, status, event_id, event_seq, dedup_key, execution_id, error)
      SELECT tenant_id, trigger_name, origin, status, event_id, event_seq, dedup_key, execution_id, error
      FROM jsonb_to_recordset(${JSON.stringify(dispatches)}::jsonb) AS r(tenant_id text, trigger_name text, origin text, status text,
        event_id text, event_seq bigint, dedup_key text, execution_id text, error text)`;
    const cursor = sql`UPDATE event_cursors SET dispatched_seq = ${seq}, dispatched_at = now() WHERE tenant_id = ${tenantId}`;
    if (!close) {
      await sql`WITH d AS (${records}) ${cursor}`.execute(trx);
      return false;
    }
    const { rows } = await sql<{ closed: number }>`
      WITH d AS (${records}), c AS (${cursor})
      UPDATE event_streams SET dispatch_queued = false WHERE tenant_id = ${tenantId} AND last_seq <= ${seq}
      RETURNING 1 AS closed`.execute(trx);
    return rows.length > 0;
  },
  async get(trx: Trx, tenantId: string): Promise<number> {
    const row = await trx.selectFrom('event_cursors').select('dispatched_seq').where('tenant_id', '=', tenantId).executeTakeFirst();
    return row?.dispatched_seq ?? 0;
  },
};

export const eventsStore = {
  /** Events after a sequence number, oldest first (the dispatcher's batches, `events tail`). */
  after: (trx: Trx, afterSeq: number, limit: number, type?: string): Promise<EventRow[]> =>
    trx.selectFrom('events').select([...eventColumns]).where('seq', '>', afterSeq).where(typeCondition(type))
      .orderBy('seq').limit(limit).execute(),

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

  /** How many events the stream holds: its sequence range (retention removes the oldest). */
  async count(trx: Trx, tenantId: string): Promise<number> {
    const [last, first] = await Promise.all([
      streamsStore.lastSeq(trx, tenantId),
      trx.selectFrom('events').select('seq').orderBy('seq').limit(1).executeTakeFirst(),
    ]);
    return first ? last - first.seq + 1 : 0;
  },

  /** Removes dispatched events older than a time; returns how many. */
  async deleteDispatchedBefore(trx: Trx, before: Date, cursor: number): Promise<number> {
    const result = await trx.deleteFrom('events').where('time', '<', before).where('seq', '<=', cursor).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
