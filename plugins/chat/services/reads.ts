// Sessions and messages as GraphQL reads them, scoped to the caller exactly
// as the REST routes scope them (sessions/caller.ts): a session is readable
// when GET /api/sessions/{id} would answer it with selected_client set to the
// session's own client; anything else is not found. The list is GET
// /api/sessions's: the caller's active sessions on one client, most recent
// activity first. Knows nothing of GraphQL.
import { type CoreServices, isUuid, type TenantTransaction } from 'agent-platform/sdk';
import { assertOwns, resolveCaller, type Actor, type Caller, type SelectedClient } from '../sessions/caller.ts';
import { clientsStore } from '../store/agents.ts';
import { messagesStore, sessionsStore } from '../store/sessions.ts';

export type SessionRow = NonNullable<Awaited<ReturnType<typeof sessionsStore.get>>>;
export type MessageRow = NonNullable<Awaited<ReturnType<typeof messagesStore.get>>>;
/** A session as listed, with its keyset key (last_active in microseconds). */
export type ListedSession = SessionRow & { active_key: number };
/** A message with the session it belongs to (already checked to be the caller's). */
export type SessionMessage = MessageRow & { session: SessionRow };

export interface Page<K> {
  direction: 'forward' | 'backward';
  key: K | undefined;
  limit: number;
}

/** Refusals of the REST guards (403, 404): the session is not the caller's. */
const refused = (err: unknown) => [403, 404].includes((err as { output?: { statusCode?: number } }).output?.statusCode ?? 0);

/** Whether the caller may read the session, as REST decides with the session's client selected. */
async function owns(trx: TenantTransaction, tenantId: string, actor: Actor, session: SessionRow): Promise<boolean> {
  try {
    assertOwns(await resolveCaller(trx, tenantId, actor, session.client_id), session, session.id);
    return true;
  } catch (err) {
    if (refused(err)) return false;
    throw err;
  }
}

export function createReads(core: Pick<CoreServices, 'withTenant'>) {
  const { withTenant } = core;
  return {
    /** One session of the caller; null when it is not found or not theirs. */
    async session(tenantId: string, actor: Actor, sessionId: string): Promise<SessionRow | null> {
      if (!isUuid(sessionId)) return null;
      return withTenant(tenantId, async (trx) => {
        const session = await sessionsStore.get(trx, sessionId.toLowerCase());
        return session && await owns(trx, tenantId, actor, session) ? session : null;
      });
    },

    /** Who the caller is on the selected client (as REST resolves it: 403/404 for a client it may not use). */
    caller: (tenantId: string, actor: Actor, selected: SelectedClient): Promise<Caller> =>
      withTenant(tenantId, (trx) => resolveCaller(trx, tenantId, actor, selected)),

    /** A keyset page of the caller's active sessions on its client. */
    async sessions(caller: Caller, page: Page<[number, string]>): Promise<ListedSession[]> {
      const rows = await withTenant(caller.tenantId, (trx) =>
        sessionsStore.pageOwned(trx, caller.clientId, caller.owner, { direction: page.direction, key: page.key, limit: page.limit }));
      // A caller bound to one session (an embed token minted for it) sees that one only.
      return caller.onlySession === undefined ? rows : rows.filter((row) => row.id === caller.onlySession);
    },

    sessionCount: (caller: Caller): Promise<number> =>
      withTenant(caller.tenantId, async (trx) => {
        if (caller.onlySession === undefined) return sessionsStore.countOwned(trx, caller.clientId, caller.owner);
        const only = await sessionsStore.get(trx, caller.onlySession);
        return only && only.is_active && only.owner_key === caller.owner && only.client_id === caller.clientId ? 1 : 0;
      }),

    /** A keyset page of a session's messages (the session already checked to be the caller's). */
    messages: (tenantId: string, sessionId: string, page: Page<number>): Promise<MessageRow[]> =>
      withTenant(tenantId, (trx) => messagesStore.keyset(trx, sessionId, { direction: page.direction, id: page.key, limit: page.limit })),

    messageCount: (tenantId: string, sessionId: string): Promise<number> =>
      withTenant(tenantId, (trx) => messagesStore.count(trx, sessionId)),

    /** Messages by id with their sessions, for a batch; a message in a session that is not the caller's is left out. */
    async messagesOf(tenantId: string, actor: Actor, ids: readonly number[]): Promise<Map<number, SessionMessage>> {
      return withTenant(tenantId, async (trx) => {
        const messages = await messagesStore.getMany(trx, [...new Set(ids)]);
        const sessions = await sessionsStore.getMany(trx, [...new Set(messages.map((m) => m.session_id))]);
        const readable = new Map<string, SessionRow>();
        for (const session of sessions) if (await owns(trx, tenantId, actor, session)) readable.set(session.id, session);
        const found = new Map<number, SessionMessage>();
        for (const message of messages) {
          const session = readable.get(message.session_id);
          if (session) found.set(Number(message.id), { ...message, session });
        }
        return found;
      });
    },

    /** The tenant's client as a row of the clients table; undefined when it is gone. */
    client: (tenantId: string, clientId: number) => withTenant(tenantId, (trx) => clientsStore.record(trx, clientId)),
  };
}

export type ChatReads = ReturnType<typeof createReads>;
