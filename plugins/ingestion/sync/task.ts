// The pg-boss handler of `ingestion.sync`: one sync of one source (from its
// cron schedule or a sync request).
import type { SyncService } from './service.ts';
import { SYNC_TASK } from './task-name.ts';

export { SYNC_TASK };

export function syncHandler(sync: SyncService) {
  return async (data: { tenant_id: string; source_id: number }): Promise<void> => {
    await sync.runSync(data.tenant_id, data.source_id);
  };
}
