// A dataset's lineage (GET /datasets/{id}/lineage): its writers, the
// datasets it was computed from (upstream) and the datasets computed from it
// (downstream), from the kept snapshots' records (store/lineage.ts). The
// dataset itself is read under the read rule; every upstream and downstream
// id also passes the rule, so a shared dataset's inputs in another tenant's
// layer are never named to a tenant that may not read them.
import type { CoreServices, TenantTransaction } from 'agent-platform/sdk';
import { parseDatasetId } from '../datasets/naming.ts';
import { readAccess } from '../datasets/read-rule.ts';
import type { DatasetRow } from '../store/datasets.ts';
import { lineageStore } from '../store/lineage.ts';

interface Producer { kind: string; id: string; name: string | null }

function readableId(tenantId: string, datasetId: string): boolean {
  try {
    return readAccess(tenantId, parseDatasetId(datasetId)) !== 'denied';
  } catch {
    return false;
  }
}

async function linked(trx: TenantTransaction, datasetIds: string[]) {
  const producers = new Map((await lineageStore.producersOf(trx, datasetIds))
    .map((row) => [row.dataset_id, { kind: row.producer_kind, id: row.producer_id, name: row.producer_name } satisfies Producer]));
  return datasetIds.map((datasetId) => ({ dataset_id: datasetId, exists: producers.has(datasetId), producer: producers.get(datasetId) ?? null }));
}

export function createLineageService(core: CoreServices, readableRow: (tenantId: string, datasetId: string) => Promise<DatasetRow>) {
  return {
    async lineage(tenantId: string, datasetId: string) {
      const row = await readableRow(tenantId, datasetId);
      return core.withTenant(tenantId, async (trx) => {
        const [fromSnapshots, lastWritten, inputs, readers] = await Promise.all([
          lineageStore.snapshotProducers(trx, row.id), lineageStore.lastWritten(trx, row.id),
          lineageStore.inputs(trx, row.id), lineageStore.readers(trx, row.id, row.dataset_id),
        ]);
        const registered = { kind: row.producer_kind, id: row.producer_id, name: row.producer_name };
        const sameAsRegistered = fromSnapshots.find((p) => p.kind === registered.kind && p.id === registered.id);
        const writers = [
          { ...registered, name: registered.name ?? sameAsRegistered?.name ?? null, last_written_at: sameAsRegistered?.last_written_at ?? (fromSnapshots.length ? null : lastWritten) },
          ...fromSnapshots.filter((p) => p !== sameAsRegistered).map((p) => ({ kind: p.kind, id: p.id, name: p.name, last_written_at: p.last_written_at })),
        ];
        return {
          dataset_id: row.dataset_id,
          writers,
          upstream: await linked(trx, inputs.filter((id) => id !== row.dataset_id && readableId(tenantId, id))),
          downstream: await linked(trx, readers.filter((id) => readableId(tenantId, id))),
        };
      });
    },
  };
}

export type LineageService = ReturnType<typeof createLineageService>;
