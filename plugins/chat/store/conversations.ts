// kysely queries of the operators' reads: every session of the tenant (any
// owner, any client; deleted ones left out) with its counts, filtered, and
// the feedback of a page of messages.
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

export interface ConversationFilter {
  /** The owner's bare subject (owner_sub). */
  user?: string;
  /** The owner key (sessions/caller.ts ownerOf). */
  ownerKey?: string;
  clientId?: number;
  /** Sessions with activity at or after this time (last_active). */
  from?: Date;
  /** Sessions started before this time (created_at). */
  to?: Date;
  /** Sessions with (true) or without (false) any feedback. */
  hasFeedback?: boolean;
  /** Sessions with at least one feedback of this rating. */
  rating?: number;
}

const sessionColumns = ['id', 'client_id', 'owner_sub', 'owner_key', 'agent_name', 'title', 'is_active', 'created_at', 'last_active'] as const;

/** last_active in whole microseconds since the epoch: exact, unlike a JavaScript Date. */
const activeKey = sql<number>`(extract(epoch FROM chat_sessions.last_active) * 1000000)::bigint`;

const feedbackOfSession = (eb: ExpressionBuilder<Database, 'chat_sessions'>) =>
  eb.selectFrom('chat_feedback').whereRef('chat_feedback.session_id', '=', 'chat_sessions.id');

function filtered(trx: TenantTransaction, filter: ConversationFilter) {
  let query = trx.selectFrom('chat_sessions').where('chat_sessions.deleted_at', 'is', null);
  if (filter.user !== undefined) query = query.where('chat_sessions.owner_sub', '=', filter.user);
  if (filter.ownerKey !== undefined) query = query.where('chat_sessions.owner_key', '=', filter.ownerKey);
  if (filter.clientId !== undefined) query = query.where('chat_sessions.client_id', '=', filter.clientId);
  if (filter.from !== undefined) query = query.where('chat_sessions.last_active', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('chat_sessions.created_at', '<', filter.to);
  if (filter.hasFeedback !== undefined) {
    const wanted = filter.hasFeedback;
    query = query.where((eb) => {
      const any = eb.exists(feedbackOfSession(eb).select('chat_feedback.message_id'));
      return wanted ? any : eb.not(any);
    });
  }
  if (filter.rating !== undefined) {
    const rating = filter.rating;
    query = query.where((eb) => eb.exists(feedbackOfSession(eb).select('chat_feedback.message_id').where('chat_feedback.rating', '=', rating)));
  }
  return query;
}

/** The session's columns, its keyset key and its counts of messages and feedback. */
function withCounts(trx: TenantTransaction, filter: ConversationFilter) {
  return filtered(trx, filter).select(sessionColumns.map((column) => `chat_sessions.${column}` as const)).select((eb) => [
    activeKey.as('active_key'),
    eb.selectFrom('chat_messages').select(eb.fn.countAll<string>().as('n')).whereRef('chat_messages.session_id', '=', 'chat_sessions.id').as('message_count'),
    feedbackOfSession(eb).select(eb.fn.countAll<string>().as('n')).as('feedback_count'),
  ]);
}

export type ConversationRow = Awaited<ReturnType<ReturnType<typeof withCounts>['executeTakeFirstOrThrow']>>;

export const conversationsStore = {
  /** An offset page, most recent activity first. */
  list: (trx: TenantTransaction, filter: ConversationFilter, skip: number, limit: number) =>
    withCounts(trx, filter).orderBy('chat_sessions.last_active', 'desc').orderBy('chat_sessions.id').offset(skip).limit(limit).execute(),

  count: async (trx: TenantTransaction, filter: ConversationFilter) =>
    Number((await filtered(trx, filter).select(trx.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n),

  /**
   * A keyset page on (last_active in microseconds, id), most recent activity
   * first. Forward: after the key in that order; backward: before it, nearest
   * first (the reverse order).
   */
  page: (trx: TenantTransaction, filter: ConversationFilter, page: { direction: 'forward' | 'backward'; key: [number, string] | undefined; limit: number }) => {
    const forward = page.direction === 'forward';
    let query = withCounts(trx, filter);
    if (page.key) {
      const [micros, id] = page.key;
      const at = sql`(timestamptz 'epoch' + ${micros} * interval '1 microsecond')`;
      query = query.where(sql<boolean>`(chat_sessions.last_active, chat_sessions.id) ${sql.raw(forward ? '<' : '>')} (${at}, ${id}::uuid)`);
    }
    const direction = forward ? 'desc' : 'asc';
    return query.orderBy('chat_sessions.last_active', direction).orderBy('chat_sessions.id', direction).limit(page.limit).execute();
  },

  /** One session of the tenant (any owner) with its counts. */
  get: (trx: TenantTransaction, id: string) => withCounts(trx, {}).where('chat_sessions.id', '=', id).executeTakeFirst(),

  /** The feedback on these messages. */
  feedbackOf: (trx: TenantTransaction, messageIds: readonly number[]) =>
    messageIds.length === 0 ? Promise.resolve([]) : trx.selectFrom('chat_feedback')
      .select(['message_id', 'session_id', 'rating', 'comment', 'created_at', 'updated_at'])
      .where('message_id', 'in', [...messageIds]).execute(),
};
