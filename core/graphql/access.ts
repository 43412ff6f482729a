// Who may resolve a GraphQL field. The rule (ARCHITECTURE "Security rules"):
// a field takes exactly the principals and roles of the REST route that owns
// the same data, so every resolver that reads tenant data starts with one of
// these guards, picked from that route's options:
//
//   REST route                                            guard
//   auth 'bearer', platform {tenant: 'required'}           requireMember(context)
//   auth 'bearer', platform {tenant: 'required', role}     requireRole(context, role) / requireAdmin(context)
//   auth ['bearer', 'api-key'], {tenant: 'required'}       requireMemberOrApiKey(context) — an API key
//                                                          only sees its own client's records (clientId)
//
// Nested fields that reach other data (a collection's documents, a citation's
// chunk) call the guard of the route that owns that data too, so that a
// field reachable by a wider audience never widens access to what it links to.
//
// The /graphql route has already authenticated the caller and checked that it
// may act in the request's tenant (X-Tenant-ID of a tenant it is not a member
// of is a 403 TENANT_FORBIDDEN before any resolver runs). Errors carry the REST
// codes: UNAUTHENTICATED, TENANT_REQUIRED, TENANT_FORBIDDEN, ROLE_REQUIRED, and
// FORBIDDEN for an API key on a field REST keeps from API keys. None says
// whether another tenant's data exists.
//
// Embed tokens (an end user of a host page) reach /graphql, so `viewer` tells
// them who they are, but every guard here refuses them (FORBIDDEN): no
// GraphQL field is an end-user surface, as no admin or member REST route is.
import type { GraphQLError } from 'graphql';
import { graphqlJs } from './graphql-js.ts';
import { isValidTenantAlias } from '../db/tenant.ts';
import { principalTenants, rolesIn, type Principal } from '../auth/principal.ts';
import { holdsRole } from '../auth/tenant-context.ts';
import type { GraphqlContext } from './context.ts';
import { badInput } from './errors.ts';

/** What a guard grants: the tenant, and for an API key the one client whose records it may see. */
export interface TenantScope {
  tenantId: string;
  /** Set for API keys (client-surface credentials): only this client's records. Undefined: the whole tenant. */
  clientId: number | undefined;
}

function refuse(message: string, code: string): GraphQLError {
  return new (graphqlJs().GraphQLError)(message, { extensions: { code } });
}

export function requirePrincipal(context: GraphqlContext): Principal {
  if (!context.principal) throw refuse('Authentication required', 'UNAUTHENTICATED');
  return context.principal;
}

/**
 * The tenant the caller acts in: the request's tenant (X-Tenant-ID, or the
 * WebSocket's connection parameters), or `explicitTenant` (a record's own
 * tenant), which gets the same membership check as the route gives X-Tenant-ID.
 */
function actingTenant(context: GraphqlContext, principal: Principal, explicitTenant?: string): string {
  if (explicitTenant === undefined) {
    if (!context.tenantId) throw refuse('A tenant is required: send X-Tenant-ID', 'TENANT_REQUIRED');
    return context.tenantId;
  }
  if (!isValidTenantAlias(explicitTenant)) {
    throw badInput('tenant is not a valid tenant alias');
  }
  const allowed = principalTenants(principal);
  if (allowed !== 'any' && !allowed.includes(explicitTenant)) throw refuse(`Not a member of tenant ${explicitTenant}`, 'TENANT_FORBIDDEN');
  return explicitTenant;
}

function refuseApiKey(principal: Principal): void {
  if (principal.kind === 'api_key') {
    throw refuse('API keys cannot read this field: it needs a bearer token of a member of the tenant', 'FORBIDDEN');
  }
  refuseEmbed(principal);
}

function refuseEmbed(principal: Principal): void {
  if (principal.kind === 'embed') {
    throw refuse('Embed tokens cannot read this field: they reach only the end-user chat surfaces', 'FORBIDDEN');
  }
}

/** REST's `auth: 'bearer'` with a required tenant: any member (user, service token, super-admin), never an API key or embed token. */
export function requireMember(context: GraphqlContext, explicitTenant?: string): string {
  const principal = requirePrincipal(context);
  refuseApiKey(principal);
  return actingTenant(context, principal, explicitTenant);
}

/** REST's `auth: 'bearer'` with `role`: a member holding the role (or one of the roles) in the tenant (super-admin and service tokens hold all). */
export function requireRole(context: GraphqlContext, role: string | string[], explicitTenant?: string): string {
  const tenantId = requireMember(context, explicitTenant);
  if (!holdsRole(rolesIn(requirePrincipal(context), tenantId), role)) {
    const named = typeof role === 'string' ? `the role "${role}"` : `one of the roles ${role.map((r) => `"${r}"`).join(', ')}`;
    throw refuse(`This field needs ${named} in tenant ${tenantId}`, 'ROLE_REQUIRED');
  }
  return tenantId;
}

export const requireAdmin = (context: GraphqlContext, explicitTenant?: string): string => requireRole(context, 'admin', explicitTenant);

/**
 * REST's `auth: ['bearer', 'api-key']` with a required tenant: a member sees
 * the tenant's records; an API key only those of its own client (the caller
 * filters by `clientId`, and treats another client's record as not found).
 */
export function requireMemberOrApiKey(context: GraphqlContext, explicitTenant?: string): TenantScope {
  const principal = requirePrincipal(context);
  refuseEmbed(principal);
  const tenantId = actingTenant(context, principal, explicitTenant);
  return { tenantId, clientId: principal.kind === 'api_key' ? principal.clientId : undefined };
}

/** Whether a record of `recordClientId` is within the scope (a member's scope holds every client's). */
export function inScope(scope: TenantScope, recordClientId: number | null): boolean {
  return scope.clientId === undefined || recordClientId === scope.clientId;
}
