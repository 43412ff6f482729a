// Dataset reads and the deprecated /iceberg/ views,
// all under the read rule (datasets/read-rule.ts). Knows nothing of HTTP.
import { forbidden, type KeysetPage, notFound, type CoreServices, type TenantTransaction } from 'agent-platform/sdk';
import type { DatasetInfo } from '../api.ts';
import type { LakehouseOptions } from '../options.ts';
import { parseDatasetId, qualified } from '../datasets/naming.ts';
import { readAccess } from '../datasets/read-rule.ts';
import { datasetsStore, snapshotsStore, type DatasetRow, type SnapshotRow } from '../store/datasets.ts';
import { rowsStore } from '../store/rows.ts';
import { datasetView, exactPair, previewRow, snapshotView, columnView } from '../datasets/views.ts';
import { targetOf } from '../store/writer.ts';

export function infoOf(row: DatasetRow, tenantId: string): DatasetInfo {
  return {
    id: row.dataset_id, namespace: row.namespace, layer: row.layer, table: row.table_name,
    relation: qualified(row.namespace, row.physical_table), shared: row.shared, ownerTenant: row.tenant_id === tenantId,
    producer: { kind: row.producer_kind, id: row.producer_id, ...(row.producer_name ? { name: row.producer_name } : {}) },
    columns: row.columns, primaryKey: row.primary_key, latestSnapshotId: row.latest_snapshot_id, rowCount: row.row_count,
  };
}

export interface ListFilter {
  namespace?: string;
  /** Only dataset ids containing it (case-insensitive). */
  q?: string;
  limit: number;
  offset: number;
}

export function createDatasetService(core: CoreServices, options: LakehouseOptions) {
  /** The dataset under the read rule: 400 malformed, 403 not the caller's to read, 404 absent. */
  async function readableRow(tenantId: string, datasetId: string, trx?: TenantTransaction): Promise<DatasetRow> {
    const name = parseDatasetId(datasetId);
    if (readAccess(tenantId, name) === 'denied') {
      throw forbidden(`Dataset ${datasetId} is not produced by this tenant, nor in a shared namespace`, 'DATASET_FORBIDDEN');
    }
    const row = trx ? await datasetsStore.find(trx, datasetId) : await core.withTenant(tenantId, (own) => datasetsStore.find(own, datasetId));
    if (!row) throw notFound(`Dataset ${datasetId} does not exist`, 'DATASET_NOT_FOUND');
    return row;
  }

  /** The dataset under the read rule, or null when it does not exist (403 when not readable). */
  async function findReadable(tenantId: string, datasetId: string): Promise<DatasetRow | null> {
    return readableRow(tenantId, datasetId).catch((err) => {
      if ((err as { output?: { statusCode: number } }).output?.statusCode === 404) return null;
      throw err;
    });
  }

  async function snapshotOf(tenantId: string, row: DatasetRow, snapshotId: string | undefined) {
    if (snapshotId === undefined || snapshotId === row.latest_snapshot_id) return row.latest_snapshot_id;
    const found = await core.withTenant(tenantId, (trx) => snapshotsStore.get(trx, row.id, snapshotId));
    if (!found) throw notFound(`Snapshot ${snapshotId} of ${row.dataset_id} does not exist (or was vacuumed by retention)`, 'SNAPSHOT_NOT_FOUND');
    return found.snapshot_id;
  }

  return {
    readableRow,

    async readable(tenantId: string, datasetId: string, trx?: TenantTransaction): Promise<DatasetInfo> {
      return infoOf(await readableRow(tenantId, datasetId, trx), tenantId);
    },

    /** The tenant's datasets and the shared ones. */
    async list(tenantId: string, filter: ListFilter) {
      return core.withTenant(tenantId, async (trx) => {
        const [rows, total] = await Promise.all([datasetsStore.list(trx, filter), datasetsStore.count(trx, filter)]);
        return { items: rows.map((row) => datasetView(row, tenantId)), total, limit: filter.limit, offset: filter.offset };
      });
    },

    /** A keyset page of the readable datasets by dataset id (GraphQL). */
    page: (tenantId: string, namespace: string | undefined, page: KeysetPage<string>) =>
      core.withTenant(tenantId, (trx) => datasetsStore.page(trx, namespace, page)),

    /** How many datasets the tenant reads (of a namespace). */
    count: (tenantId: string, namespace: string | undefined) => core.withTenant(tenantId, (trx) => datasetsStore.count(trx, { namespace })),

    findReadable,

    async get(tenantId: string, datasetId: string) {
      return datasetView(await readableRow(tenantId, datasetId), tenantId);
    },

    /** The first rows of the latest snapshot, or of a given one (time travel). */
    async preview(tenantId: string, datasetId: string, query: { snapshotId?: string; limit?: number; offset?: number }) {
      const row = await readableRow(tenantId, datasetId);
      const snapshot = await snapshotOf(tenantId, row, query.snapshotId);
      const limit = Math.min(query.limit ?? 100, options.previewMaxRows);
      const offset = query.offset ?? 0;
      const target = targetOf(row);
      const rows = snapshot === null ? [] : await core.withTenant(tenantId, (trx) => rowsStore.readAt(trx, target, snapshot, limit, offset));
      return {
        dataset_id: row.dataset_id,
        ...exactPair('snapshot_id', snapshot),
        columns: row.columns.map(columnView),
        rows: rows.map((values) => previewRow(values, row.columns)),
        limit,
        offset,
      };
    },

    async snapshots(tenantId: string, datasetId: string, query: { limit: number; before?: string }) {
      const row = await readableRow(tenantId, datasetId);
      const rows = await core.withTenant(tenantId, (trx) => snapshotsStore.list(trx, row.id, query.limit, query.before));
      return { dataset_id: row.dataset_id, ...exactPair('latest_snapshot_id', row.latest_snapshot_id), items: rows.map(snapshotView) };
    },

    /** A keyset page of one dataset's snapshots, newest first (GraphQL); the dataset was read under the read rule. */
    snapshotPage: (tenantId: string, datasetRef: number, page: KeysetPage<string>) =>
      core.withTenant(tenantId, (trx) => snapshotsStore.page(trx, datasetRef, page)),

    /** Snapshots of datasets already read under the read rule, by (dataset, snapshot id): one query for a GraphQL batch. */
    snapshotsByIds: (tenantId: string, keys: readonly { ref: number; snapshotId: string }[]): Promise<SnapshotRow[]> =>
      core.withTenant(tenantId, (trx) => snapshotsStore.byIds(trx, keys)),

    /** A snapshot of a dataset under the read rule, or null when either does not exist (403 when not readable). */
    async findSnapshot(tenantId: string, datasetId: string, snapshotId: string): Promise<SnapshotRow | null> {
      if (!/^\d{1,19}$/.test(snapshotId)) return null;
      const row = await findReadable(tenantId, datasetId);
      if (!row) return null;
      return (await core.withTenant(tenantId, (trx) => snapshotsStore.get(trx, row.id, snapshotId))) ?? null;
    },

    /** Deprecated: GET /iceberg/tables. */
    async icebergTables(tenantId: string, filter: ListFilter) {
      const { items, total } = await this.list(tenantId, filter);
      return {
        tables: items.map((item) => ({
          identifier: item.id, namespace: [item.namespace, item.layer], name: item.table,
          latest_snapshot_id: item.latest_snapshot_id, latest_snapshot_id_exact: item.latest_snapshot_id_exact, row_count: item.row_count,
        })),
        total,
        deprecated: 'Use GET /api/v1/datasets',
      };
    },

    /** Deprecated: GET /iceberg/snapshots/{table}. */
    async icebergSnapshots(tenantId: string, datasetId: string, limit: number) {
      const { items, ...rest } = await this.snapshots(tenantId, datasetId, { limit });
      return {
        table: rest.dataset_id,
        current_snapshot_id: rest.latest_snapshot_id,
        current_snapshot_id_exact: rest.latest_snapshot_id_exact,
        snapshots: items.map((item) => ({ ...item, timestamp_ms: item.created_at.getTime() })),
        deprecated: 'Use GET /api/v1/datasets/{dataset_id}/snapshots',
      };
    },
  };
}

export type DatasetService = ReturnType<typeof createDatasetService>;
