// The tenant of an anonymous request: X-Tenant-ID (or the path) names an
// existing tenant. Two rate limits: one per client address whatever tenant it
// names (taken first, before the alias is even read, so naming malformed or
// made-up tenants costs the address its own tokens and
// bounds the tenant lookups), then one per address in that tenant, taken
// only once the tenant is known to exist (the tenant directory caches it),
// so a made-up tenant never makes a key. Public routes take no login (a
// bearer token is not read).
import { badRequest, clientAddress, isValidTenantAlias, notFound, type CoreServices, type Request, type SharedRateLimiter } from 'agent-platform/sdk';
import type { OccurrencesOptions } from '../options.ts';

export type PublicTenant = (request: Request, alias?: unknown) => Promise<string>;

export interface PublicLimiters {
  address: SharedRateLimiter;
  tenant: SharedRateLimiter;
}

export function publicTenant(core: CoreServices, options: OccurrencesOptions, limiters: PublicLimiters): PublicTenant {
  return async (request, alias = request.headers['x-tenant-id']) => {
    const address = clientAddress(request, options.trustProxy);
    await limiters.address.take(address);
    if (alias === undefined || alias === '') throw badRequest('A tenant is required: send X-Tenant-ID', 'TENANT_REQUIRED');
    if (typeof alias !== 'string' || !isValidTenantAlias(alias)) {
      throw badRequest('Tenant alias is malformed: up to 64 lowercase characters [a-z0-9-], or a UUID', 'TENANT_INVALID');
    }
    if (!(await core.tenants.exists(alias))) throw notFound(`Tenant not found: ${alias}`, 'TENANT_NOT_FOUND');
    await limiters.tenant.take(`${alias}\u0000${address}`);
    return alias;
  };
}
