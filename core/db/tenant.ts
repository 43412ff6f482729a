// withTenant: the only way plugin code touches tenant-owned rows. It opens a
// transaction, drops to the platform_tenant role (so row-level security holds
// even for a superuser connection) and sets app.tenant_id transaction-locally
// (session settings would leak between connections on PGlite).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './types.ts';
import { badRequest } from '../errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ALIAS = /^[a-z0-9-]{1,64}$/;

export function isValidTenantAlias(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 64 && (ALIAS.test(value) || UUID.test(value));
}

export type TenantTransaction = Transaction<Database>;
export type WithTenant = <T>(tenantId: string, work: (trx: TenantTransaction) => Promise<T>) => Promise<T>;

export function createWithTenant(db: Kysely<Database>): WithTenant {
  return async (tenantId, work) => {
    // The alias is validated strictly, so it can be written into the statement:
    // one round trip sets both the role and the tenant.
    if (!isValidTenantAlias(tenantId)) throw badRequest(`Invalid tenant id: ${JSON.stringify(tenantId)}`, 'TENANT_INVALID');
    return db.transaction().execute(async (trx) => {
      await sql.raw(`SET LOCAL ROLE platform_tenant; SET LOCAL app.tenant_id = '${tenantId}'`).execute(trx);
      return work(trx);
    });
  };
}
