// Who is chatting, and on which client: the one place that decides session
// ownership. A session belongs to (tenant, client, owner); the owner key names
// the principal's kind and issuer as well as its subject, and for an API key
// the visitor (ownerOf), for an embed token the client and external user.
// An embed token acts only for its own client (another one, named or the
// default, is 403 "Embed token is not authorized for this client"), sees only
// its own user's sessions (another's is 404: it is not told they exist) and,
// when minted for a session, only that one.
import { badRequest, forbidden, notFound, type Principal, type TenantTransaction } from 'agent-platform/sdk';
import { clientsStore } from '../store/agents.ts';

/**
 * The principal of a chat request, with the visitor an API-key request names
 * (X-Visitor-Id): one API key serves every visitor of a public page, so the
 * key alone names no end user.
 */
export type Actor = Principal & { visitorId?: string };

export interface Caller {
  tenantId: string;
  principal: Principal;
  /** The owner key of the sessions this caller creates and may use. */
  owner: string;
  clientId: number;
  /** The one session an embed token minted for a session may use. */
  onlySession?: string;
}

export const EMBED_CLIENT_FORBIDDEN = 'Embed token is not authorized for this client';

export const VISITOR_HEADER = 'x-visitor-id';
const VISITOR_ID = /^[A-Za-z0-9_-]{8,128}$/;

/**
 * The actor of a request: an API-key request must name its visitor (an opaque
 * id the client keeps, 8–128 of A–Z a–z 0–9 _ -), else 400; other principals
 * are their own end user and the header is ignored.
 */
export function actorOf(principal: Principal, visitorHeader: string | string[] | undefined): Actor {
  if (principal.kind !== 'api_key') return principal;
  if (visitorHeader === undefined || visitorHeader === '') {
    throw badRequest('X-Visitor-Id is required with an API key: an opaque id the client keeps for its visitor (8-128 characters A-Z a-z 0-9 _ -); sessions belong to that visitor', 'VISITOR_ID_REQUIRED');
  }
  if (typeof visitorHeader !== 'string' || !VISITOR_ID.test(visitorHeader)) {
    throw badRequest('X-Visitor-Id must be 8-128 characters A-Z a-z 0-9 _ -', 'INVALID_VISITOR_ID');
  }
  return { ...principal, visitorId: visitorHeader };
}

/** `selected_client`: a client key (ck_…) or, legacy, a numeric client id. */
export type SelectedClient = string | number | undefined;

/**
 * The owner key: kind and issuer before the subject, so subjects of different
 * kinds or issuers never collide (a user whose sub is `api-key:7` is not API
 * key 7; platform and OIDC users with one sub are two people), and an API
 * key's sessions are its visitor's.
 */
export function ownerOf(principal: Actor): string {
  switch (principal.kind) {
    case 'super_admin':
      return 'super-admin';
    case 'user':
      return `user:${principal.issuer}:${principal.sub}`;
    case 'service':
      return `service:${principal.sub}`;
    case 'api_key':
      // actorOf requires the visitor on every route; without one (a caller
      // outside the routes) nothing is owned: no visitor id is empty.
      return `api-key:${principal.keyId}:visitor:${principal.visitorId ?? ''}`;
    case 'embed':
      return `embed:${principal.clientId}:${principal.externalUserId}`;
  }
}

/**
 * Resolves the client a request acts for: the one named by selected_client,
 * else the API key's own client, else the tenant's default client (its oldest).
 */
export type ClientRow = NonNullable<Awaited<ReturnType<typeof clientsStore.oldest>>>;

/** The client `selected_client` names (undefined: the tenant's default client, its oldest), if it exists. */
export function findClient(trx: TenantTransaction, selected: SelectedClient): Promise<ClientRow | undefined> {
  return selected === undefined
    ? clientsStore.oldest(trx)
    : typeof selected === 'number' ? clientsStore.byId(trx, selected) : clientsStore.byKey(trx, selected);
}

/**
 * `find` looks the client up (findClient; a caller that read the clients of
 * many requests at once passes one that answers from what it read).
 */
export async function resolveCaller(
  trx: TenantTransaction, tenantId: string, principal: Actor, selected: SelectedClient, find: typeof findClient = findClient,
): Promise<Caller> {
  const owner = ownerOf(principal);
  if (selected === undefined && principal.kind === 'api_key') return { tenantId, principal, owner, clientId: principal.clientId };
  // Without selected_client the request is for
  // the tenant's default client, which an embed token of another client may not use.
  if (principal.kind === 'embed' && selected !== undefined && selected === principal.clientId) {
    return { tenantId, principal, owner, clientId: principal.clientId, onlySession: principal.sessionId };
  }
  const client = await find(trx, selected);
  if (!client) {
    throw selected === undefined
      ? notFound('The tenant has no client: create one (POST /api/admin/clients) or send selected_client', 'CLIENT_NOT_FOUND')
      : notFound(`Client not found: ${selected}`, 'CLIENT_NOT_FOUND');
  }
  if (principal.kind === 'api_key' && principal.clientId !== client.id) {
    throw forbidden('This API key is not authorized for this client', 'CLIENT_FORBIDDEN');
  }
  if (principal.kind === 'embed') {
    if (principal.clientId !== client.id) throw forbidden(EMBED_CLIENT_FORBIDDEN, 'EMBED_CLIENT_FORBIDDEN');
    return { tenantId, principal, owner, clientId: client.id, onlySession: principal.sessionId };
  }
  return { tenantId, principal, owner, clientId: client.id };
}

export interface OwnedRow {
  id: string;
  client_id: number;
  owner_key: string;
}

/**
 * 404 when the session is not in the tenant (or deleted), 403 when it is
 * someone else's or another client's. An embed token is told 404 for every
 * session that is not its user's (and, when minted for one session, for every
 * other): an end user of a host page learns nothing of other sessions.
 */
export function assertOwns<T extends OwnedRow>(caller: Caller, session: T | undefined, sessionId: string): T {
  const notFoundError = () => notFound(`Session not found: ${sessionId}`, 'SESSION_NOT_FOUND');
  if (!session) throw notFoundError();
  if (caller.onlySession !== undefined && caller.onlySession !== session.id) throw notFoundError();
  if (session.owner_key !== caller.owner || session.client_id !== caller.clientId) {
    if (caller.principal.kind === 'embed') throw notFoundError();
    throw forbidden('This session belongs to another user or client', 'SESSION_FORBIDDEN');
  }
  return session;
}
