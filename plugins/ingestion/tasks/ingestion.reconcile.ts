// `ingestion.reconcile`: starts documents waiting in `pending` without a run
// (pipeline/reconciler.ts), for one tenant when a run ended and freed a slot,
// or for every tenant from the cron schedule (every minute). A tenant whose
// pass fails is logged and does not stop the others.
import type { LongTaskOptions } from 'agent-platform/sdk';
import { reconcileTenant } from '../pipeline/reconciler.ts';
import type { RunDeps } from '../pipeline/runs.ts';
import type { ReconcilePayload } from './payloads.ts';

export const RECONCILE_CRON = '* * * * *';

export const reconcileTaskOptions: LongTaskOptions = { retryLimit: 1, expireInSeconds: 300 };

export function reconcileTask(deps: RunDeps) {
  const reconcile = async (tenantId: string) => {
    try {
      await reconcileTenant(deps, tenantId);
    } catch (err) {
      deps.core.logger.error({ tenantId, err: (err as Error).message }, 'ingestion reconciler pass failed');
    }
  };
  return async (payload: ReconcilePayload | null): Promise<void> => {
    if (payload?.tenant_id) await reconcile(payload.tenant_id);
    else await deps.core.tenants.each(reconcile);
  };
}
