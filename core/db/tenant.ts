// withTenant: the only way plugin code touches tenant-owned rows. It opens a
// transaction, drops to the platform_tenant role (so row-level security holds
// even for a superuser connection) and sets app.tenant_id transaction-locally
// (session settings would leak between connections on PGlite).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './types.ts';
import { badRequest } from '../errors.ts';
import { withOpeningStatements, type OpeningStatements } from './database.ts';

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
    // one round trip begins the transaction and sets both the role and the tenant
    // (openDatabase's driver sends them with the BEGIN). With a kysely instance
    // that did not send them, they go out here, before any work.
    if (!isValidTenantAlias(tenantId)) throw badRequest(`Invalid tenant id: ${JSON.stringify(tenantId)}`, 'TENANT_INVALID');
    const opening: OpeningStatements = { sql: `SET LOCAL ROLE platform_tenant; SET LOCAL app.tenant_id = '${tenantId}'`, sent: false };
    return withOpeningStatements(opening, () => db.transaction().execute(async (trx) => {
      if (!opening.sent) await sql.raw(opening.sql).execute(trx);
      return work(trx);
    }));
  };
}
