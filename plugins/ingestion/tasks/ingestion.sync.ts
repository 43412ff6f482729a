// `ingestion.sync`: one sync of one source (services/sync.ts). Grouped by
// tenant: one tenant's syncs run one at a time, syncs of different tenants
// side by side (up to INGESTION_SYNC_CONCURRENCY in this process), so a slow
// source delays only its own tenant.
import type { LongTaskOptions } from 'agent-platform/sdk';
import type { IngestionSettings } from '../config/settings.ts';
import type { SyncService } from '../services/sync.ts';
import type { SyncPayload } from './payloads.ts';

export const syncTaskOptions = (settings: IngestionSettings): LongTaskOptions => ({
  retryLimit: 1, expireInSeconds: 3600, concurrency: settings.sync.concurrency, groupConcurrency: 1,
});

export function syncTask(sync: SyncService) {
  return async (payload: SyncPayload): Promise<void> => {
    await sync.runSync(payload.tenant_id, payload.source_id);
  };
}
