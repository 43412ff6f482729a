// Hourly clean-up of uploads whose token expired unused: their bytes are
// deleted tenant by tenant (under each tenant's row-level security). An
// expired token is refused before it is pruned, so this only frees space.
import type { CoreServices } from 'agent-platform/sdk';
import { filesStore } from '../store/files.ts';

export const PRUNE_TASK = 'forms.prune_files';
export const PRUNE_CRON = '41 * * * *';

export function pruneFilesTask(core: Pick<CoreServices, 'tenants' | 'withTenant' | 'logger' | 'clock'>) {
  return async () => {
    const now = core.clock.now();
    let pruned = 0;
    const tenants = await core.tenants.each(async (id) => {
      pruned += await core.withTenant(id, (trx) => filesStore.pruneExpired(trx, now));
    });
    core.logger.debug({ tenants, pruned }, 'forms: pruned expired uploads');
    return { pruned };
  };
}
