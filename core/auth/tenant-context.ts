// Resolves the tenant of each request and checks the principal may act in it.
// Order: the route's `tenant_id` path or query parameter, else X-Tenant-ID,
// else the principal's only tenant. Routes declare what they need in
// `options.plugins.platform`: { tenant: 'required' | 'optional' | 'none', role, superAdmin, endUser }.
// Embed tokens reach only routes that opt in with `endUser: true` (the chat
// surfaces an end user of a host page works with); every other route answers
// them 403 EMBED_TOKEN_NOT_ALLOWED.
import type { Server, Request, ResponseToolkit } from '@hapi/hapi';
// Declares request.logger: a program that reaches this module through the SDK alone (a plugin package's build) sees it too.
import type {} from '../http/request-log.ts';
import { isValidTenantAlias } from '../db/tenant.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';
import { principalTenants, rolesIn, type Principal } from './principal.ts';

export interface RouteAccess {
  tenant?: 'required' | 'optional' | 'none';
  /**
   * The tenant must be named by the request (X-Tenant-ID, or a tenant_id
   * parameter): never taken from the principal's only membership, so that
   * token claims never select it (the data-pipeline API).
   */
  explicitTenant?: boolean;
  /**
   * A service or delegation token may omit the tenant: the route resolves it
   * from the token (the ontology). Users still must send it.
   */
  serviceMayOmitTenant?: boolean;
  /** A role the principal must hold in the tenant, or a list of roles of which it must hold one (super-admin and service tokens hold all). */
  role?: string | string[];
  superAdmin?: boolean;
  /**
   * An end-user surface (sessions, chat, cancel, feedback, uploads): embed
   * tokens may call it. Without it, an embed token gets 403.
   */
  endUser?: boolean;
}

/** Whether `roles` (a principal's in a tenant) satisfy a route's `role`. */
export function holdsRole(roles: string[] | 'all', required: string | string[]): boolean {
  if (roles === 'all') return true;
  return (typeof required === 'string' ? [required] : required).some((role) => roles.includes(role));
}

function describeRole(required: string | string[]): string {
  return typeof required === 'string' ? `the role "${required}"` : `one of the roles ${required.map((r) => `"${r}"`).join(', ')}`;
}

declare module '@hapi/hapi' {
  interface PluginSpecificConfiguration {
    platform?: RouteAccess;
  }
  interface RequestApplicationState {
    tenantId?: string;
  }
}

function requestedTenant(request: Request): unknown {
  const params = request.params as Record<string, unknown>;
  const query = request.query as Record<string, unknown>;
  return params.tenant_id ?? query.tenant_id ?? request.headers['x-tenant-id'];
}

/**
 * Checks that `principal` may call a route of `access` and resolves its
 * tenant from `requested` (what the request names, if anything): the tenant,
 * or undefined where the route lets it be absent. Throws the refusal (Boom:
 * 400, 403, 404). The onPostAuth check of every route, and the GraphQL
 * WebSocket's check of its connection parameters.
 */
export async function tenantForPrincipal(
  principal: Principal,
  requested: unknown,
  access: RouteAccess,
  deps: { tenantExists: (id: string) => Promise<boolean>; warn: (fields: Record<string, unknown>, message: string) => void },
): Promise<string | undefined> {
  if (access.superAdmin && principal.kind !== 'super_admin') {
    throw forbidden('This operation needs the super-admin token', 'SUPER_ADMIN_REQUIRED');
  }
  if (principal.kind === 'embed' && !access.endUser) {
    throw forbidden('Embed tokens reach only the end-user chat surfaces', 'EMBED_TOKEN_NOT_ALLOWED');
  }
  const mode = access.tenant ?? 'required';
  if (mode === 'none') return undefined;

  const allowed = principalTenants(principal);
  if (principal.kind === 'user' && principal.memberships === null) {
    deps.warn({ sub: principal.sub, event: 'tenant_membership_missing' }, 'tenant_membership_missing');
    throw forbidden('The token carries no organization membership claim', 'TENANT_MEMBERSHIP_MISSING');
  }
  let tenantId = requested;
  if (tenantId === undefined || tenantId === '') {
    if (allowed !== 'any' && allowed.length === 1 && !access.explicitTenant) tenantId = allowed[0];
    else if (mode === 'optional' || (access.serviceMayOmitTenant && principal.kind === 'service')) return undefined;
    else throw badRequest('A tenant is required: send X-Tenant-ID', 'TENANT_REQUIRED');
  }
  if (!isValidTenantAlias(tenantId)) {
    throw badRequest('Tenant alias is malformed: up to 64 lowercase characters [a-z0-9-], or a UUID', 'TENANT_INVALID');
  }
  if (allowed !== 'any' && !allowed.includes(tenantId)) {
    throw forbidden(`Not a member of tenant ${tenantId}`, 'TENANT_FORBIDDEN');
  }
  if (access.role && !holdsRole(rolesIn(principal, tenantId), access.role)) {
    throw forbidden(`This operation needs ${describeRole(access.role)} in tenant ${tenantId}`, 'ROLE_REQUIRED');
  }
  if (!(await deps.tenantExists(tenantId))) throw notFound(`Tenant not found: ${tenantId}`, 'TENANT_NOT_FOUND');
  return tenantId;
}

export function registerTenantContext(server: Server, tenantExists: (id: string) => Promise<boolean>): void {
  server.ext('onPostAuth', async (request: Request, h: ResponseToolkit) => {
    if (!request.auth.isAuthenticated) return h.continue;
    const access = request.route.settings.plugins?.platform ?? {};
    const principal = request.auth.credentials as unknown as Principal;
    const tenantId = await tenantForPrincipal(principal, requestedTenant(request), access, {
      tenantExists, warn: (fields, message) => request.logger.warn(fields, message),
    });
    if (tenantId !== undefined) request.app.tenantId = tenantId;
    return h.continue;
  });
}

/** The resolved tenant of a request whose route requires one. */
export function tenantOf(request: Request): string {
  const tenantId = request.app.tenantId;
  if (!tenantId) throw badRequest('A tenant is required: send X-Tenant-ID', 'TENANT_REQUIRED');
  return tenantId;
}
