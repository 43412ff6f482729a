// A tenant's statement slots across processes: N transaction-scoped advisory
// locks per tenant (N = TENANT_SQL_MAX_CONCURRENT_PER_TENANT). One statement
// tries them in order (CASE evaluates its branches lazily) and answers the
// slot it took, or -1 when all N are held. Taken in the tenant's transaction,
// just before its statement: the slot is released with the transaction,
// however it ends (commit, rollback, a lost connection). Tenant-written SQL
// cannot take or release them (the analysis refuses every pg_* function).
// PGlite has one backend session, which holds every advisory lock it takes:
// there the cap is counted in the process instead (gate.ts).
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { TenantTransaction } from '../db/tenant.ts';

/** The advisory locks' first key: tenant statement slots ('tSQL'). */
const SLOT_CLASS = 0x7453514c;

/** The second key of a tenant's slot: a 32-bit hash of tenant and slot number. */
export function slotKey(tenantId: string, slot: number): number {
  return createHash('sha256').update(`${tenantId}\u0000${slot}`).digest().readInt32BE(0);
}

/** The statement trying each of the tenant's `slots` in turn. */
export function slotStatement(tenantId: string, slots: number): string {
  const branches = Array.from({ length: slots }, (_, slot) => `WHEN pg_try_advisory_xact_lock(${SLOT_CLASS}, ${slotKey(tenantId, slot)}) THEN ${slot}`);
  return `SELECT CASE ${branches.join(' ')} ELSE -1 END AS slot`;
}

/** Takes a free slot of the tenant in this transaction: its number, or -1 when none is free. */
export async function trySlot(trx: TenantTransaction, tenantId: string, slots: number): Promise<number> {
  const { rows } = await sql.raw<{ slot: number }>(slotStatement(tenantId, slots)).execute(trx);
  return rows[0]!.slot;
}
