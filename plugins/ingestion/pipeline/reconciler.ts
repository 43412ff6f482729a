// The reconciler starts documents that wait in `pending` without a run (reset
// by retry-ingestion, changed by a sync, refused a slot earlier): at most
// INGESTION_RECONCILE_BATCH per pass and tenant, and never beyond the tenant's
// free quota slots, so a big retry drains at a limited rate instead of
// flooding the workers. The `ingestion.reconcile` task runs it every minute
// (cron) and right after a run ends or a retry; documents ingesting or ready
// are never touched.
import { documentsStore } from '../store/documents.ts';
import { beginRun, freeSlots, type RunDeps } from './runs.ts';

/** One pass for one tenant; returns how many documents it started. */
export async function reconcileTenant(deps: RunDeps, tenantId: string): Promise<number> {
  return deps.core.withTenant(tenantId, async (trx) => {
    const free = await freeSlots(deps, trx, tenantId);
    if (free === 0) return 0;
    const waiting = await documentsStore.claimPending(trx, Math.min(free, deps.settings.reconcileBatch));
    for (const document of waiting) await beginRun(deps, trx, tenantId, document.id, 'pending');
    return waiting.length;
  });
}
