// Daily clean-up of provenance records older than provenanceRetentionDays.
// Citations keep their verdict (shown_to_context was decided at creation), so
// pruning changes no citation; a context that cites a chunk it was shown
// longer ago than the retention period is then out_of_provenance.
// Tenant rows are reachable only under each tenant's row-level security.
import type { CoreServices } from 'agent-platform/sdk';
import { provenanceStore } from '../store/provenance.ts';

export const PRUNE_TASK = 'citations.prune_provenance';
export const PRUNE_CRON = '23 4 * * *';

export function pruneTask(core: Pick<CoreServices, 'tenants' | 'withTenant' | 'logger'>, retentionDays: number, now: () => number = Date.now) {
  return async () => {
    if (retentionDays <= 0) return { pruned: 0 };
    const before = new Date(now() - retentionDays * 86_400_000);
    let pruned = 0;
    const tenants = await core.tenants.each(async (id) => {
      pruned += await core.withTenant(id, (trx) => provenanceStore.prune(trx, before));
    });
    core.logger.debug({ tenants, pruned }, 'citations: pruned provenance');
    return { pruned };
  };
}
