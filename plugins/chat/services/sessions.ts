// Sessions, their messages and feedback, always scoped to the caller (owner
// and client: sessions/caller.ts). Knows nothing of HTTP.
import { type CoreServices, forbidden, isUuid, isValidTenantAlias, notFound, type Principal, type TenantTransaction } from 'agent-platform/sdk';
import type { Emit } from '../events/emitter.ts';
import { agentsStore } from '../store/agents.ts';
import { feedbackStore, messagesStore, sessionsStore } from '../store/sessions.ts';
import { assertOwns, resolveCaller, type Caller, type SelectedClient } from '../sessions/caller.ts';
import { messageView, sessionView, utc } from '../sessions/view.ts';

export interface SessionsDeps {
  emit: Emit;
  /** Stops the unfinished turn of a session being deleted (the turns service). */
  stopActiveTurn(tenantId: string, sessionId: string): Promise<void>;
}

/** Run in the transaction that deletes a session (ChatApi.onSessionDeleted: what other plugins keep per session goes with it). */
export type SessionDeletedHook = (trx: TenantTransaction, tenantId: string, sessionId: string) => Promise<void>;

/** Who the session events name: the client, and for an embed token the host's external user. */
function eventActor(caller: Caller) {
  return { client_id: caller.clientId, external_user_id: caller.principal.kind === 'embed' ? caller.principal.externalUserId : null };
}

export function createSessionsService(core: Pick<CoreServices, 'withTenant'>, deps: SessionsDeps) {
  const { withTenant } = core;
  const deletedHooks: SessionDeletedHook[] = [];

  /** Runs `work` with the caller resolved and the session checked to be theirs. */
  async function owned<T>(
    tenantId: string, principal: Principal, selected: SelectedClient, sessionId: string,
    work: (trx: TenantTransaction, caller: Caller, session: NonNullable<Awaited<ReturnType<typeof sessionsStore.get>>>) => Promise<T>,
  ): Promise<T> {
    return withTenant(tenantId, async (trx) => {
      const caller = await resolveCaller(trx, tenantId, principal, selected);
      const session = assertOwns(caller, await sessionsStore.get(trx, sessionId), sessionId);
      return work(trx, caller, session);
    });
  }

  const service = {
    owned,

    /** Registers work to do in the transaction that deletes a session. */
    onSessionDeleted(hook: SessionDeletedHook): void {
      deletedHooks.push(hook);
    },

    /**
     * Who owns a session (other plugins ask: integrations' session-scoped
     * credentials): its owner's sub, null when the tenant has no such active
     * session (deleted ones included, as everywhere else). No caller, no client:
     * the asking plugin decides what the owner may do.
     */
    async sessionOwner(tenantId: string, sessionId: string): Promise<{ sub: string; owner_key: string } | null> {
      // Session ids are UUIDs: anything else names no session (and must not reach a uuid column).
      if (!isValidTenantAlias(tenantId) || !isUuid(sessionId)) return null;
      const row = await withTenant(tenantId, (trx) => sessionsStore.get(trx, sessionId));
      return row ? { sub: row.owner_sub, owner_key: row.owner_key } : null;
    },

    async create(tenantId: string, principal: Principal, selected: SelectedClient, input: { title?: string; agent_name?: string }) {
      return withTenant(tenantId, async (trx) => {
        const caller = await resolveCaller(trx, tenantId, principal, selected);
        if (caller.onlySession !== undefined) {
          throw forbidden('This embed token was minted for one session: it cannot start another', 'EMBED_SESSION_BOUND');
        }
        if (input.agent_name && !(await agentsStore.get(trx, input.agent_name))) {
          throw notFound(`Agent not found: ${input.agent_name}`, 'AGENT_NOT_FOUND');
        }
        const row = await sessionsStore.insert(trx, {
          tenant_id: tenantId, client_id: caller.clientId, owner_sub: principal.sub, owner_key: caller.owner,
          agent_name: input.agent_name ?? null, title: input.title ?? '',
        });
        await deps.emit(trx, tenantId, 'chat.session.created', { session_id: row.id, ...eventActor(caller), agent_name: row.agent_name });
        return sessionView(row);
      });
    },

    async list(tenantId: string, principal: Principal, selected: SelectedClient, skip: number, limit: number) {
      return withTenant(tenantId, async (trx) => {
        const caller = await resolveCaller(trx, tenantId, principal, selected);
        if (caller.onlySession !== undefined) {
          // A token minted for one session lists that session, when it is its user's.
          const only = await sessionsStore.get(trx, caller.onlySession);
          const items = only && only.owner_key === caller.owner && only.client_id === caller.clientId && skip === 0 ? [sessionView(only)] : [];
          return { items, total: items.length, skip, limit };
        }
        const page = await sessionsStore.listOwned(trx, caller.clientId, caller.owner, skip, limit);
        return { items: page.items.map((row) => sessionView(row)), total: page.total, skip, limit };
      });
    },

    get: (tenantId: string, principal: Principal, selected: SelectedClient, sessionId: string) =>
      owned(tenantId, principal, selected, sessionId, async (_trx, _caller, session) => sessionView(session)),

    rename: (tenantId: string, principal: Principal, selected: SelectedClient, sessionId: string, title: string) =>
      owned(tenantId, principal, selected, sessionId, async (trx) => sessionView((await sessionsStore.rename(trx, sessionId, title))!)),

    async remove(tenantId: string, principal: Principal, selected: SelectedClient, sessionId: string) {
      await owned(tenantId, principal, selected, sessionId, async (trx, caller) => {
        await sessionsStore.softDelete(trx, sessionId);
        for (const hook of deletedHooks) await hook(trx, tenantId, sessionId);
        await deps.emit(trx, tenantId, 'chat.session.ended', { session_id: sessionId, ...eventActor(caller), reason: 'deleted' });
      });
      await deps.stopActiveTurn(tenantId, sessionId);
    },

    messages: (tenantId: string, principal: Principal, selected: SelectedClient, sessionId: string, after: number, limit: number) =>
      owned(tenantId, principal, selected, sessionId, async (trx) => {
        const rows = await messagesStore.page(trx, sessionId, after, limit + 1);
        const page = rows.slice(0, limit);
        const feedback = new Map((await messagesStore.feedbackOf(trx, page.map((m) => m.id))).map((f) => [f.message_id, f]));
        return {
          items: page.map((row) => messageView(row, feedback.get(row.id))),
          next_after: rows.length > limit ? page.at(-1)!.id : null,
          limit,
        };
      }),

    feedback: (tenantId: string, principal: Principal, selected: SelectedClient, sessionId: string, input: { message_id: number; rating: number; comment?: string }) =>
      owned(tenantId, principal, selected, sessionId, async (trx, caller) => {
        const message = await messagesStore.get(trx, input.message_id);
        if (!message || message.session_id !== sessionId || message.role !== 'assistant') {
          throw notFound(`Assistant message not found in this session: ${input.message_id}`, 'MESSAGE_NOT_FOUND');
        }
        const row = await feedbackStore.upsert(trx, {
          tenant_id: tenantId, message_id: input.message_id, session_id: sessionId, rater_sub: caller.owner,
          rating: input.rating, comment: input.comment ?? '',
        });
        // The comment is free text a person wrote (it may name people): it stays in chat_feedback, read by admins, and never travels with the event.
        await deps.emit(trx, tenantId, 'chat.feedback.given', {
          session_id: sessionId, message_id: row.message_id, client_id: caller.clientId, rating: row.rating, created: row.inserted, has_comment: row.comment !== '',
        });
        return {
          created: row.inserted,
          feedback: {
            message_id: row.message_id, session_id: row.session_id, rating: row.rating, comment: row.comment,
            created_at: utc(row.created_at), updated_at: utc(row.updated_at),
          },
        };
      }),
  };
  return service;
}

export type SessionsService = ReturnType<typeof createSessionsService>;
