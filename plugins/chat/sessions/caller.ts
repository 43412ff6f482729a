// Who is chatting, and on which client: the one place that decides session
// ownership. A session belongs to (tenant, client, owner); the owner is the
// principal's subject. Bearer users and API keys work today; embed tokens
// (a later issue) plug in here by mapping their claims to an owner and client.
import type { Principal } from '../../../core/auth/principal.ts';
import type { TenantTransaction } from '../../../core/db/tenant.ts';
import { forbidden, notFound } from '../../../core/errors.ts';
import { clientsStore } from '../store/agents.ts';

export interface Caller {
  tenantId: string;
  principal: Principal;
  /** The owner of the sessions this caller creates and may use. */
  owner: string;
  clientId: number;
}

/** `selected_client`: a client key (ck_…) or, legacy, a numeric client id. */
export type SelectedClient = string | number | undefined;

export function ownerOf(principal: Principal): string {
  // Subjects of different principal kinds cannot collide: API keys are `api-key:<id>`,
  // the super-admin is `super-admin`, users and service accounts their own sub.
  return principal.sub;
}

/**
 * Resolves the client a request acts for: the one named by selected_client,
 * else the API key's own client, else the tenant's default client (its oldest).
 */
export async function resolveCaller(trx: TenantTransaction, tenantId: string, principal: Principal, selected: SelectedClient): Promise<Caller> {
  const owner = ownerOf(principal);
  if (selected === undefined && principal.kind === 'api_key') return { tenantId, principal, owner, clientId: principal.clientId };
  const client = selected === undefined
    ? await clientsStore.oldest(trx)
    : typeof selected === 'number' ? await clientsStore.byId(trx, selected) : await clientsStore.byKey(trx, selected);
  if (!client) {
    throw selected === undefined
      ? notFound('The tenant has no client: create one (POST /api/admin/clients) or send selected_client', 'CLIENT_NOT_FOUND')
      : notFound(`Client not found: ${selected}`, 'CLIENT_NOT_FOUND');
  }
  if (principal.kind === 'api_key' && principal.clientId !== client.id) {
    throw forbidden('This API key is not authorized for this client', 'CLIENT_FORBIDDEN');
  }
  return { tenantId, principal, owner, clientId: client.id };
}

export interface OwnedRow {
  id: string;
  client_id: number;
  owner_sub: string;
}

/** 404 when the session is not in the tenant (or deleted), 403 when it is someone else's or another client's. */
export function assertOwns<T extends OwnedRow>(caller: Caller, session: T | undefined, sessionId: string): T {
  if (!session) throw notFound(`Session not found: ${sessionId}`, 'SESSION_NOT_FOUND');
  if (session.owner_sub !== caller.owner || session.client_id !== caller.clientId) {
    throw forbidden('This session belongs to another user or client', 'SESSION_FORBIDDEN');
  }
  return session;
}
