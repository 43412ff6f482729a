// Retention: a dataset keeps its newest PIPELINES_SNAPSHOT_RETENTION
// snapshots. After a write that goes past that, the older snapshot records
// and the row versions no kept snapshot can see (closed at or before the
// oldest kept one) are deleted, in one tenant transaction. Time travel then
// reaches back as far as the oldest kept snapshot; an older id is a 404.
import type { CoreServices } from 'agent-platform/sdk';
import { datasetsStore, snapshotsStore } from '../store/datasets.ts';
import { rowsStore } from '../store/rows.ts';
import { targetOf } from '../store/writer.ts';

export function createRetention(core: CoreServices, keep: number) {
  return {
    async vacuum(tenantId: string, datasetId: string): Promise<{ snapshots: number; rows: number }> {
      return core.withTenant(tenantId, async (trx) => {
        const dataset = await datasetsStore.lockOwn(trx, tenantId, datasetId);
        if (!dataset || dataset.snapshot_count <= keep) return { snapshots: 0, rows: 0 };
        const boundary = await snapshotsStore.retentionBoundary(trx, dataset.id, keep);
        if (boundary === null) return { snapshots: 0, rows: 0 };
        const rows = await rowsStore.vacuum(trx, targetOf(dataset), boundary);
        const snapshots = await snapshotsStore.deleteBefore(trx, dataset.id, boundary);
        return { snapshots, rows };
      });
    },
    keep,
  };
}

export type Retention = ReturnType<typeof createRetention>;
