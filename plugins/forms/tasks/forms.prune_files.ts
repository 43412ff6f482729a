// Hourly clean-up of uploads whose token expired unused: their bytes are
// deleted tenant by tenant (under each tenant's row-level security). An
// expired token is refused before it is pruned, so this only frees space.
import type { CoreServices } from 'agent-platform/sdk';
import { filesStore } from '../store/files.ts';

export const PRUNE_TASK = 'forms.prune_files';
export const PRUNE_CRON = '41 * * * *';

export function pruneFilesTask(core: Pick<CoreServices, 'db' | 'withTenant' | 'logger' | 'clock'>) {
  return async () => {
    const now = core.clock.now();
    const tenants = await core.db.selectFrom('tenants').select('id').execute();
    let pruned = 0;
    for (const { id } of tenants) pruned += await core.withTenant(id, (trx) => filesStore.pruneExpired(trx, now));
    core.logger.debug({ tenants: tenants.length, pruned }, 'forms: pruned expired uploads');
    return { pruned };
  };
}
