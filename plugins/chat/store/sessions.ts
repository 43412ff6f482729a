// kysely queries for sessions, messages and feedback.
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

const sessionColumns = ['id', 'client_id', 'owner_sub', 'owner_key', 'agent_name', 'title', 'is_active', 'created_at', 'last_active'] as const;
const messageColumns = ['id', 'session_id', 'turn_id', 'role', 'content', 'tool_metadata', 'created_at'] as const;

/** The owner's active sessions on a client: what GET /api/sessions lists. */
const ownedActive = (trx: TenantTransaction, clientId: number, ownerKey: string) =>
  trx.selectFrom('chat_sessions')
    .where('client_id', '=', clientId).where('owner_key', '=', ownerKey).where('deleted_at', 'is', null).where('is_active', '=', true);

/** last_active in whole microseconds since the epoch: exact, unlike a JavaScript Date. */
const activeKey = sql<number>`(extract(epoch FROM last_active) * 1000000)::bigint`;

export const sessionsStore = {
  /** Sessions created since `since` (the console's usage counter). */
  async createdSince(trx: TenantTransaction, since: Date): Promise<number> {
    const row = await trx.selectFrom('chat_sessions').select((eb) => eb.fn.countAll<string>().as('n')).where('created_at', '>=', since).executeTakeFirstOrThrow();
    return Number(row.n);
  },

  insert: (trx: TenantTransaction, values: { tenant_id: string; client_id: number; owner_sub: string; owner_key: string; agent_name: string | null; title: string }) =>
    trx.insertInto('chat_sessions').values(values).returning([...sessionColumns]).executeTakeFirstOrThrow(),

  /** A session by id, ended or not (deleted ones are gone for every purpose). */
  get: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('chat_sessions').select([...sessionColumns]).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst(),

  listOwned: async (trx: TenantTransaction, clientId: number, ownerKey: string, skip: number, limit: number) => {
    const base = trx.selectFrom('chat_sessions')
      // The list holds active sessions only (an ended one is still read by id and reopened by a question).
      .where('client_id', '=', clientId).where('owner_key', '=', ownerKey).where('deleted_at', 'is', null).where('is_active', '=', true);
    const [items, count] = await Promise.all([
      base.select([...sessionColumns]).orderBy('last_active', 'desc').orderBy('created_at', 'desc').orderBy('id')
        .offset(skip).limit(limit).execute(),
      base.select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  },

  /**
   * A keyset page of the owner's sessions on a client as GET /api/sessions
   * lists them (active, most recent activity first), on (last_active in
   * microseconds, id). Forward: after the key in that order; backward: before
   * it, nearest first (the reverse order).
   */
  pageOwned: (trx: TenantTransaction, clientId: number, ownerKey: string, page: { direction: 'forward' | 'backward'; key: [number, string] | undefined; limit: number }) => {
    const forward = page.direction === 'forward';
    let query = ownedActive(trx, clientId, ownerKey).select([...sessionColumns, activeKey.as('active_key')]);
    if (page.key) {
      const [micros, id] = page.key;
      const at = sql`(timestamptz 'epoch' + ${micros} * interval '1 microsecond')`;
      query = query.where(sql<boolean>`(last_active, id) ${sql.raw(forward ? '<' : '>')} (${at}, ${id}::uuid)`);
    }
    const direction = forward ? 'desc' : 'asc';
    return query.orderBy('last_active', direction).orderBy('id', direction).limit(page.limit).execute();
  },

  countOwned: async (trx: TenantTransaction, clientId: number, ownerKey: string) =>
    Number((await ownedActive(trx, clientId, ownerKey).select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),

  /** Sessions by id (deleted ones left out). */
  getMany: (trx: TenantTransaction, ids: readonly string[]) =>
    ids.length === 0 ? Promise.resolve([]) : trx.selectFrom('chat_sessions').select([...sessionColumns]).where('id', 'in', [...ids]).where('deleted_at', 'is', null).execute(),

  rename: (trx: TenantTransaction, id: string, title: string) =>
    trx.updateTable('chat_sessions').set({ title }).where('id', '=', id).where('deleted_at', 'is', null)
      .returning([...sessionColumns]).executeTakeFirst(),

  /** Sets the title only while it is empty (the first question names the conversation). */
  touch: (trx: TenantTransaction, id: string, titleIfEmpty: string) =>
    trx.updateTable('chat_sessions')
      .set({ last_active: sql`now()` as never, title: sql`CASE WHEN title = '' THEN ${titleIfEmpty} ELSE title END` as never })
      .where('id', '=', id).execute(),

  softDelete: async (trx: TenantTransaction, id: string) =>
    (await trx.updateTable('chat_sessions').set({ is_active: false, deleted_at: sql`now()` as never })
      .where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst()).numUpdatedRows > 0n,

  /**
   * Ends the sessions idle since before `cutoff` that no answer is under way in
   * (running, cancelling, or suspended waiting for a person), and returns them.
   * Only a session still active is ended, so each ending is returned once, even
   * to two sweeps at once (the second sees the row after the first committed).
   */
  endIdle: (trx: TenantTransaction, cutoff: Date) =>
    trx.updateTable('chat_sessions').set({ is_active: false })
      .where('is_active', '=', true).where('deleted_at', 'is', null).where('last_active', '<', cutoff)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('chat_turns').select('chat_turns.id')
        .whereRef('chat_turns.session_id', '=', 'chat_sessions.id').where('chat_turns.status', 'in', ['running', 'suspended', 'cancelling']))))
      .returning(['id', 'client_id']).execute(),
};

export const messagesStore = {
  insert: (trx: TenantTransaction, values: {
    tenant_id: string; session_id: string; turn_id: string | null; role: 'user' | 'assistant'; content: string; tool_metadata: Record<string, unknown>;
  }) =>
    trx.insertInto('chat_messages').values({ ...values, tool_metadata: JSON.stringify(values.tool_metadata) })
      .returning([...messageColumns]).executeTakeFirstOrThrow(),

  page: (trx: TenantTransaction, sessionId: string, afterId: number, limit: number) =>
    trx.selectFrom('chat_messages').select([...messageColumns])
      .where('session_id', '=', sessionId).where('id', '>', afterId).orderBy('id').limit(limit).execute(),

  /**
   * A keyset page of a session's messages (oldest first) on id. Forward:
   * after `id`; backward: before it, newest first (the reverse order).
   */
  keyset: (trx: TenantTransaction, sessionId: string, page: { direction: 'forward' | 'backward'; id: number | undefined; limit: number }) => {
    const forward = page.direction === 'forward';
    let query = trx.selectFrom('chat_messages').select([...messageColumns]).where('session_id', '=', sessionId);
    if (page.id !== undefined) query = query.where('id', forward ? '>' : '<', page.id);
    return query.orderBy('id', forward ? 'asc' : 'desc').limit(page.limit).execute();
  },

  getMany: (trx: TenantTransaction, ids: readonly number[]) =>
    ids.length === 0 ? Promise.resolve([]) : trx.selectFrom('chat_messages').select([...messageColumns]).where('id', 'in', [...ids]).execute(),

  count: async (trx: TenantTransaction, sessionId: string) =>
    Number((await trx.selectFrom('chat_messages').select(trx.fn.countAll<number>().as('n')).where('session_id', '=', sessionId).executeTakeFirstOrThrow()).n),

  /** The last `limit` messages before `beforeId`, oldest first (the model's history). */
  history: async (trx: TenantTransaction, sessionId: string, beforeId: number, limit: number) =>
    limit === 0 ? [] : (await trx.selectFrom('chat_messages').select(['id', 'role', 'content'])
      .where('session_id', '=', sessionId).where('id', '<', beforeId).orderBy('id', 'desc').limit(limit).execute()).reverse(),

  get: (trx: TenantTransaction, id: number) =>
    trx.selectFrom('chat_messages').select([...messageColumns]).where('id', '=', id).executeTakeFirst(),

  feedbackOf: (trx: TenantTransaction, messageIds: number[]) =>
    messageIds.length === 0 ? Promise.resolve([]) : trx.selectFrom('chat_feedback').select(['message_id', 'rating', 'comment', 'updated_at'])
      .where('message_id', 'in', messageIds).execute(),
};

export const feedbackStore = {
  upsert: (trx: TenantTransaction, values: { tenant_id: string; message_id: number; session_id: string; rater_sub: string; rating: number; comment: string }) =>
    trx.insertInto('chat_feedback').values(values)
      .onConflict((oc) => oc.columns(['tenant_id', 'message_id']).doUpdateSet({
        rating: values.rating, comment: values.comment, rater_sub: values.rater_sub, updated_at: sql`now()` as never,
      }))
      .returning(['message_id', 'session_id', 'rating', 'comment', 'created_at', 'updated_at', sql<boolean>`(xmax = 0)`.as('inserted')])
      .executeTakeFirstOrThrow(),
};
