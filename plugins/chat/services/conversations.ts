// The operators' reads (tenant admins): every session of the tenant, whoever
// owns it and on whichever client, with its messages and the feedback given on
// them. Ownership is not checked here: the routes and GraphQL fields that call
// this require the admin role. Deleted sessions are gone, as everywhere.
import { type CoreServices, isUuid, notFound } from 'agent-platform/sdk';
import { conversationsStore, type ConversationFilter, type ConversationRow } from '../store/conversations.ts';
import { messagesStore, sessionsStore } from '../store/sessions.ts';
import { messageView, sessionView, utc } from '../sessions/view.ts';

export type { ConversationFilter, ConversationRow };
export type FeedbackRow = Awaited<ReturnType<typeof conversationsStore.feedbackOf>>[number];

export function conversationView(row: ConversationRow) {
  return {
    ...sessionView(row),
    owner_sub: row.owner_sub,
    owner_key: row.owner_key,
    message_count: Number(row.message_count ?? 0),
    feedback_count: Number(row.feedback_count ?? 0),
  };
}

export function feedbackView(row: FeedbackRow) {
  return { rating: row.rating, comment: row.comment, created_at: utc(row.created_at)!, updated_at: utc(row.updated_at) };
}

export function createConversations(core: Pick<CoreServices, 'withTenant'>) {
  const { withTenant } = core;
  const notFoundError = (id: string) => notFound(`Session not found: ${id}`, 'SESSION_NOT_FOUND');

  return {
    /** GET /api/admin/chat/sessions: a page of the tenant's sessions, most recent activity first. */
    list: (tenantId: string, filter: ConversationFilter, skip: number, limit: number) =>
      withTenant(tenantId, async (trx) => {
        const [rows, total] = await Promise.all([conversationsStore.list(trx, filter, skip, limit), conversationsStore.count(trx, filter)]);
        return { items: rows.map(conversationView), total, skip, limit };
      }),

    /** GET /api/admin/chat/sessions/{id}: one session of the tenant (404 when it is not the tenant's or deleted). */
    async get(tenantId: string, sessionId: string) {
      const row = await withTenant(tenantId, (trx) => conversationsStore.get(trx, sessionId));
      if (!row) throw notFoundError(sessionId);
      return conversationView(row);
    },

    /** GET /api/admin/chat/sessions/{id}/messages: its messages oldest first, each with the feedback given on it. */
    messages: (tenantId: string, sessionId: string, after: number, limit: number) =>
      withTenant(tenantId, async (trx) => {
        if (!(await sessionsStore.get(trx, sessionId))) throw notFoundError(sessionId);
        const rows = await messagesStore.page(trx, sessionId, after, limit + 1);
        const page = rows.slice(0, limit);
        const feedback = new Map((await conversationsStore.feedbackOf(trx, page.map((m) => m.id))).map((f) => [Number(f.message_id), f]));
        return {
          items: page.map((row) => {
            const given = feedback.get(Number(row.id));
            return { ...messageView(row), feedback: given ? feedbackView(given) : null };
          }),
          next_after: rows.length > limit ? page.at(-1)!.id : null,
          limit,
        };
      }),

    // GraphQL's reads (Relay pages and DataLoader batches).

    /** One session of the tenant as a row; null when it is not found. */
    async session(tenantId: string, sessionId: string): Promise<ConversationRow | null> {
      if (!isUuid(sessionId)) return null;
      return (await withTenant(tenantId, (trx) => conversationsStore.get(trx, sessionId.toLowerCase()))) ?? null;
    },

    page: (tenantId: string, filter: ConversationFilter, page: { direction: 'forward' | 'backward'; key: [number, string] | undefined; limit: number }) =>
      withTenant(tenantId, (trx) => conversationsStore.page(trx, filter, page)),

    count: (tenantId: string, filter: ConversationFilter) => withTenant(tenantId, (trx) => conversationsStore.count(trx, filter)),

    /** The feedback on messages, by message id (a batch). */
    feedbackOf: (tenantId: string, messageIds: readonly number[]): Promise<Map<number, FeedbackRow>> =>
      withTenant(tenantId, async (trx) => new Map((await conversationsStore.feedbackOf(trx, [...new Set(messageIds)])).map((f) => [Number(f.message_id), f]))),
  };
}

export type Conversations = ReturnType<typeof createConversations>;
