// SQL of a tenant's public origins: the tenant's own rows in a tenant
// transaction; the (origin, tenant) directory across tenants only through
// tenancy_public_origin_directory(), on the platform's connection.
import { sql, type CoreServices, type TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

export const publicOriginsStore = {
  list: async (trx: TenantTransaction) =>
    (await trx.selectFrom('tenant_public_origins').select('origin').orderBy('origin').execute()).map((row) => row.origin),

  /** Replaces the tenant's list. */
  replace: async (trx: TenantTransaction, tenantId: string, origins: string[]) => {
    await trx.deleteFrom('tenant_public_origins').execute();
    if (origins.length > 0) await trx.insertInto('tenant_public_origins').values(origins.map((origin) => ({ tenant_id: tenantId, origin }))).execute();
  },

  /** Every (origin, tenant) pair: what the CORS policy of the public routes decides on. */
  directory: async (db: CoreServices['db']) =>
    (await sql<{ origin: string; tenant_id: string }>`SELECT origin, tenant_id FROM tenancy_public_origin_directory()`.execute(db)).rows,
};
