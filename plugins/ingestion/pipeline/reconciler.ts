// The reconciler starts documents that wait in `pending` without a run (reset
// by retry-ingestion, changed by a sync, refused a slot earlier): at most
// INGESTION_RECONCILE_BATCH per pass and tenant, and never beyond the tenant's
// free quota slots, so a big retry drains at a limited rate instead of
// flooding the workers. It runs every minute (cron) and is kicked right after
// a retry; documents ingesting or ready are never touched.
import type { CoreServices } from 'agent-platform/sdk';
import { documentsStore } from '../store/documents.ts';
import { beginRun, freeSlots, type RunDeps } from './runs.ts';

export { RECONCILE_TASK } from './runs.ts';
export const RECONCILE_CRON = '* * * * *';

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

/** Tenants are a global table: listed with the system handle, then each is reconciled in its own context. */
async function allTenants(core: CoreServices): Promise<string[]> {
  const ids: string[] = [];
  await core.tenants.each((id) => ids.push(id));
  return ids;
}

export function reconcileHandler(deps: RunDeps) {
  return async (data: { tenant_id?: string }): Promise<void> => {
    const tenants = data?.tenant_id ? [data.tenant_id] : await allTenants(deps.core);
    for (const tenantId of tenants) {
      try {
        await reconcileTenant(deps, tenantId);
      } catch (err) {
        deps.core.logger.error({ tenantId, err: (err as Error).message }, 'ingestion reconciler pass failed');
      }
    }
  };
}
