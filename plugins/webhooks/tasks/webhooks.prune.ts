// Scheduled clean-up of expired idempotency records, expired replay records
// of signed-resume signatures, and past rate windows.
// Expired rows never block anything (a claim takes an expired id over); this
// only keeps the tables small. Tenant rows are reachable only under each
// tenant's row-level security, so it visits the tenants one at a time.
import type { CoreServices } from 'agent-platform/sdk';
import { IDEMPOTENCY_WINDOW_SECONDS } from '../signing/checks.ts';
import { deliveriesStore, rateStore } from '../store/webhooks.ts';

export const PRUNE_TASK = 'webhooks.prune';
export const PRUNE_CRON = '*/10 * * * *';

export async function pruneTenant(core: Pick<CoreServices, 'withTenant'>, tenantId: string, nowMs: number) {
  return core.withTenant(tenantId, async (trx) => ({
    deliveries: await deliveriesStore.prune(trx, new Date(nowMs - IDEMPOTENCY_WINDOW_SECONDS * 1000)),
    signatures: await deliveriesStore.pruneSignatures(trx, new Date(nowMs)),
    // The current minute's window is still counting; every earlier one is done.
    rateWindows: await rateStore.prune(trx, new Date(Math.floor(nowMs / 60_000) * 60_000)),
  }));
}

export function pruneHandler(core: Pick<CoreServices, 'tenants' | 'withTenant' | 'logger'>, now: () => number = Date.now) {
  return async () => {
    let deliveries = 0;
    let rateWindows = 0;
    let signatures = 0;
    const tenants = await core.tenants.each(async (id) => {
      const pruned = await pruneTenant(core, id, now());
      deliveries += pruned.deliveries;
      rateWindows += pruned.rateWindows;
      signatures += pruned.signatures;
    });
    core.logger.debug({ tenants, deliveries, signatures, rateWindows }, 'webhooks: pruned expired state');
    return { tenants, deliveries, signatures, rateWindows };
  };
}
