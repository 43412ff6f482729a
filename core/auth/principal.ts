// Who is calling, once a strategy has authenticated the request.
export type Memberships = Record<string, { roles: string[] }>;

export type Principal =
  | { kind: 'super_admin'; sub: 'super-admin' }
  | { kind: 'user'; sub: string; issuer: 'platform' | 'oidc'; serviceAccount: boolean; memberships: Memberships | null }
  | ServicePrincipal
  | { kind: 'api_key'; sub: string; tenantId: string; clientId: number; keyId: number }
  | EmbedPrincipal;

/**
 * A service token (HS256, SERVICE_JWT_SECRET): cross-tenant. `capabilities`
 * come from its `capabilities` array or space-separated `scope` claim (e.g.
 * `ontology:sync`); `actor` is set on a delegation token: a service token
 * acting for a user, named by its RFC 8693 `act` claim (`{"sub": ...}`).
 * `tenant` is its `tenant` claim: read only by surfaces that let service
 * tokens omit X-Tenant-ID (the ontology's); everywhere
 * else the tenant is still named by the request.
 */
export interface ServicePrincipal {
  kind: 'service';
  sub: string;
  capabilities?: string[];
  actor?: { sub: string };
  tenant?: string;
}

/**
 * An end user of a page that embeds the chat (plugins/embed), from a
 * short-lived embed token the platform signed: one tenant, one client, one
 * external user of the host, optionally one session. It reaches only routes
 * that opt in with `plugins.platform.endUser` (and no GraphQL tenant data).
 * `sub` is `embed:<client_id>:<external_user_id>`.
 */
export interface EmbedPrincipal {
  kind: 'embed';
  sub: string;
  tenantId: string;
  clientId: number;
  externalUserId: string;
  displayName: string;
  /** The only session the token works for, when it was minted for one. */
  sessionId?: string;
  /** The service account that minted the token (absent when the super-admin did). */
  mintedBy?: string;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
}

/**
 * Reads organization membership from token claims. Accepted, in order:
 * `organizations` keyed by alias (values may carry `roles`), `organization`
 * in the same shape or as one alias, and a bare list of aliases in either.
 * Returns null when the token has no membership claim at all. A `tenant_id`
 * claim is ignored: claims never select the tenant.
 */
export function membershipsFromClaims(claims: Record<string, unknown>): Memberships | null {
  const fallbackRoles = stringList(claims.roles) ?? [];
  const claim = claims.organizations ?? claims.organization;
  if (claim === undefined || claim === null) return null;
  const memberships: Memberships = {};
  if (typeof claim === 'string') {
    memberships[claim] = { roles: fallbackRoles };
  } else if (Array.isArray(claim)) {
    for (const alias of claim) if (typeof alias === 'string') memberships[alias] = { roles: fallbackRoles };
  } else if (typeof claim === 'object') {
    for (const [alias, value] of Object.entries(claim as Record<string, unknown>)) {
      const roles = stringList((value as { roles?: unknown } | null)?.roles) ?? fallbackRoles;
      memberships[alias] = { roles };
    }
  } else {
    return null;
  }
  return memberships;
}

/** The tenants a principal is bound to, when it is bound to any. */
export function principalTenants(principal: Principal): string[] | 'any' {
  switch (principal.kind) {
    case 'super_admin':
    case 'service':
      return 'any';
    case 'api_key':
    case 'embed':
      return [principal.tenantId];
    case 'user':
      return Object.keys(principal.memberships ?? {});
  }
}

export function rolesIn(principal: Principal, tenantId: string): string[] | 'all' {
  switch (principal.kind) {
    case 'super_admin':
    case 'service':
      return 'all';
    case 'api_key':
    case 'embed':
      return [];
    case 'user':
      return principal.memberships?.[tenantId]?.roles ?? [];
  }
}

/** The capabilities a principal's token grants (service and delegation tokens only). */
export function capabilitiesOf(principal: Principal): string[] {
  return principal.kind === 'service' ? principal.capabilities ?? [] : [];
}
