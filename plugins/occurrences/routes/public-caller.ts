// The tenant of an anonymous request: X-Tenant-ID names an existing tenant,
// and the client spends a token of the rate limit for its address in that
// tenant. Public routes take no login (a bearer token is not read).
import { badRequest, clientAddress, isValidTenantAlias, notFound, type CoreServices, type RateLimiter, type Request } from 'agent-platform/sdk';
import type { OccurrencesOptions } from '../options.ts';

export type PublicTenant = (request: Request, alias?: unknown) => Promise<string>;

export function publicTenant(core: CoreServices, options: OccurrencesOptions, limiter: RateLimiter): PublicTenant {
  return async (request, alias = request.headers['x-tenant-id']) => {
    if (alias === undefined || alias === '') throw badRequest('A tenant is required: send X-Tenant-ID', 'TENANT_REQUIRED');
    if (typeof alias !== 'string' || !isValidTenantAlias(alias)) {
      throw badRequest('Tenant alias is malformed: up to 64 lowercase characters [a-z0-9-], or a UUID', 'TENANT_INVALID');
    }
    limiter.take(`${alias}\u0000${clientAddress(request, options.trustProxy)}`);
    if (!(await core.tenants.exists(alias))) throw notFound(`Tenant not found: ${alias}`, 'TENANT_NOT_FOUND');
    return alias;
  };
}
