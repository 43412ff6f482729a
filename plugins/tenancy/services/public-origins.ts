// A tenant's public origins: the exact web origins whose pages may call the
// tenant's public routes from a browser (CORS). Validated as embed origins
// are (core's origin rules); a change is seen by this process's CORS policy
// at once (the directory is forgotten).
import { notFound, parseOrigins, type CoreServices } from 'agent-platform/sdk';
import type { TenancyOptions } from '../options.ts';
import { publicOriginsStore } from '../store/public-origins.ts';
import { PUBLIC_ORIGINS_CHANNEL, type OriginDirectory } from './origin-directory.ts';

export interface PublicOrigins {
  origins: string[];
}

export function createPublicOriginsService(core: CoreServices, options: TenancyOptions, directory: OriginDirectory) {
  async function requireTenant(tenantId: string) {
    if (!(await core.tenants.exists(tenantId))) throw notFound(`Tenant not found: ${tenantId}`, 'TENANT_NOT_FOUND');
  }
  return {
    async get(tenantId: string): Promise<PublicOrigins> {
      await requireTenant(tenantId);
      return { origins: await core.withTenant(tenantId, (trx) => publicOriginsStore.list(trx)) };
    },

    /** Replaces the list (400 INVALID_ORIGIN naming the first bad entry: nothing is changed). */
    async set(tenantId: string, origins: string[]): Promise<PublicOrigins> {
      const parsed = parseOrigins(origins, options.allowLocalhostOrigins, 'origins');
      await requireTenant(tenantId);
      const stored = await core.withTenant(tenantId, async (trx) => {
        await publicOriginsStore.replace(trx, tenantId, parsed);
        return publicOriginsStore.list(trx);
      });
      directory.forget();
      await core.invalidation.publish(PUBLIC_ORIGINS_CHANNEL, tenantId);
      return { origins: stored };
    },
  };
}

export type PublicOriginsService = ReturnType<typeof createPublicOriginsService>;
