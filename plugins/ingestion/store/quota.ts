// Per-tenant ingestion quota: a slot per run in flight, at most
// INGESTION_MAX_CONCURRENT. Taking slots first locks the tenant's state row
// (an upsert), so concurrent uploads of one tenant count one after the other
// and never overshoot; slots older than INGESTION_QUOTA_TTL are stale (their
// run died without ending) and are released on the way.
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

type Trx = TenantTransaction;

export const quotaStore = {
  /** Locks the tenant's quota until the transaction ends and returns the slots in use (stale ones released). */
  lockAndCount: async (trx: Trx, tenantId: string, ttlSeconds: number) => {
    await trx.insertInto('ingestion_tenant_state').values({ tenant_id: tenantId })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ touched_at: sql`now()` }))
      .execute();
    await trx.deleteFrom('ingestion_quota_slots')
      .where('acquired_at', '<', sql<Date>`now() - make_interval(secs => ${ttlSeconds})`).execute();
    const { n } = await trx.selectFrom('ingestion_quota_slots').select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(n);
  },

  /** Seconds until the oldest slot goes stale: an upper bound for Retry-After. */
  oldestSlotAge: async (trx: Trx) => {
    const row = await trx.selectFrom('ingestion_quota_slots')
      .select(sql<number>`extract(epoch FROM now() - min(acquired_at))`.as('age')).executeTakeFirst();
    return row?.age === null || row?.age === undefined ? undefined : Number(row.age);
  },

  /** Mean seconds of the tenant's recent runs (what a waiting upload should expect); undefined without history. */
  recentRunSeconds: async (trx: Trx) => {
    const { rows } = await sql<{ seconds: number | null }>`
      SELECT avg(extract(epoch FROM completed_at - started_at))::float AS seconds FROM (
        SELECT completed_at, started_at FROM ingestion_documents
        WHERE completed_at IS NOT NULL AND started_at IS NOT NULL ORDER BY completed_at DESC LIMIT 20
      ) recent`.execute(trx);
    return rows[0]?.seconds ?? undefined;
  },

  take: (trx: Trx, tenantId: string, documentId: string, runId: string) =>
    trx.insertInto('ingestion_quota_slots').values({ tenant_id: tenantId, document_id: documentId, run_id: runId })
      .onConflict((oc) => oc.columns(['tenant_id', 'document_id']).doUpdateSet({ run_id: runId, acquired_at: sql`now()` }))
      .execute(),

  release: async (trx: Trx, documentId: string) =>
    Number((await trx.deleteFrom('ingestion_quota_slots').where('document_id', '=', documentId).executeTakeFirst()).numDeletedRows),

  releaseMany: (trx: Trx, documentIds: string[]) =>
    documentIds.length === 0 ? Promise.resolve() : trx.deleteFrom('ingestion_quota_slots').where('document_id', 'in', documentIds).execute().then(() => undefined),

  /** Refreshes a slot while its run makes progress, so a long but alive run never looks stale. */
  refresh: (trx: Trx, documentId: string, runId: string) =>
    trx.updateTable('ingestion_quota_slots').set({ acquired_at: sql`now()` })
      .where('document_id', '=', documentId).where('run_id', '=', runId).execute(),
};
