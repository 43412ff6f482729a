// The one factory of the lakehouse's services, for its register and its CLI:
// the dataset registry, the writer, reads, lineage, retention, and the API other
// plugins use.
import type { CoreServices } from 'agent-platform/sdk';
import type { LakehouseApi } from './api.ts';
import { datasetIdOf, parseDatasetId, tableSegmentOf } from './datasets/naming.ts';
import type { LakehouseOptions } from './options.ts';
import { createRegistry } from './services/registry.ts';
import { createRetention } from './services/retention.ts';
import { snapshotField } from './graphql/snapshot-field.ts';
import { createDatasetService, infoOf } from './services/datasets.ts';
import { createLineageService } from './services/lineage.ts';
import { rowsStore } from './store/rows.ts';
import { lakeTypeOfSchema } from './datasets/types.ts';
import { createWriter, targetOf } from './store/writer.ts';

export function createServices(core: CoreServices, options: LakehouseOptions) {
  const registry = createRegistry(core);
  const datasets = createDatasetService(core, options);
  const retention = createRetention(core, options.snapshotRetention);
  const writer = createWriter(core);
  const lineage = createLineageService(core, datasets.readableRow);

  const api: LakehouseApi = {
    parseDatasetId: (datasetId) => {
      const { namespace, layer, table } = parseDatasetId(datasetId);
      return { namespace, layer, table };
    },
    datasetIdFor: (namespace, tenantId, name) => datasetIdOf(namespace, tenantId, tableSegmentOf(name)),
    columnsOfSchema: (schema) => Object.entries((schema.properties ?? {}) as Record<string, unknown>)
      .map(([name, property]) => ({ name, type: lakeTypeOfSchema(property) })),
    async ensureDataset(tenantId, spec) {
      await registry.ensure(tenantId, spec);
      const row = await datasets.readableRow(tenantId, spec.datasetId);
      return infoOf(row, tenantId);
    },
    async write(tenantId, datasetId, request, inTransaction) {
      const { result, snapshotCount } = await writer(tenantId, datasetId, request, inTransaction);
      // Retention runs after the write committed: its own transaction, never holding the write back.
      if (result.created && snapshotCount > retention.keep) {
        await retention.vacuum(tenantId, datasetId).catch((err) => core.logger.warn({ err, dataset: datasetId }, 'lake retention failed'));
      }
      return result;
    },
    readable: (tenantId, datasetId, trx) => datasets.readable(tenantId, datasetId, trx),
    datasetNode: (tenantId, datasetId) => datasets.findReadable(tenantId, datasetId),
    snapshotNode: (tenantId, datasetId, snapshotId) => datasets.findSnapshot(tenantId, datasetId, snapshotId),
    snapshotField: snapshotField((tenantId, datasetId, snapshotId) => datasets.findSnapshot(tenantId, datasetId, snapshotId)),
    asOf: (dataset, snapshotId) => {
      const snapshot = snapshotId ?? dataset.latestSnapshotId;
      const target = { relation: dataset.relation, columns: dataset.columns };
      // A dataset without a snapshot has no rows: select nothing, without touching its table.
      return snapshot === null ? rowsStore.selectNone(target) : rowsStore.selectAt(target, snapshot);
    },
  };
  return { datasets, lineage, retention, api, targetOf };
}

export type LakehouseServices = ReturnType<typeof createServices>;
