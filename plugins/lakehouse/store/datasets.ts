// The dataset and snapshot registry (lake_datasets, lake_snapshots): tenant
// transactions, row-level security picks the rows (a tenant's own, and the
// shared ones for reading). Snapshot ids are read as text: they pass 2^53.
import { type KeysetPage, sql, type TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

const datasetColumns = [
  'id', 'tenant_id', 'dataset_id', 'namespace', 'layer', 'table_name', 'physical_table', 'shared',
  'producer_kind', 'producer_id', 'producer_name', 'columns', 'primary_key', 'row_count', 'created_at', 'updated_at',
] as const;
const latest = sql<string | null>`latest_snapshot_id::text`.as('latest_snapshot_id');
const snapshotCount = sql<number>`(SELECT count(*)::int FROM lake_snapshots s WHERE s.dataset_ref = lake_datasets.id)`.as('snapshot_count');

export const datasetsStore = {
  find: (trx: TenantTransaction, datasetId: string) =>
    trx.selectFrom('lake_datasets').select([...datasetColumns, latest, snapshotCount]).where('dataset_id', '=', datasetId).executeTakeFirst(),

  /** The tenant's own dataset, locked until the transaction ends: one writer per dataset at a time. */
  lockOwn: (trx: TenantTransaction, tenantId: string, datasetId: string) =>
    trx.selectFrom('lake_datasets').select([...datasetColumns, latest, snapshotCount])
      .where('dataset_id', '=', datasetId).where('tenant_id', '=', tenantId).forUpdate().executeTakeFirst(),

  list: (trx: TenantTransaction, filter: { namespace?: string; q?: string; limit: number; offset: number }) => {
    let query = trx.selectFrom('lake_datasets').select([...datasetColumns, latest, snapshotCount]);
    if (filter.namespace) query = query.where('namespace', '=', filter.namespace);
    if (filter.q) query = query.where(sql<boolean>`strpos(lower(dataset_id), lower(${filter.q})) > 0`);
    return query.orderBy('dataset_id').limit(filter.limit).offset(filter.offset).execute();
  },

  count: async (trx: TenantTransaction, filter: { namespace?: string; q?: string }) => {
    let query = trx.selectFrom('lake_datasets').select(sql<number>`count(*)::int`.as('n'));
    if (filter.namespace) query = query.where('namespace', '=', filter.namespace);
    if (filter.q) query = query.where(sql<boolean>`strpos(lower(dataset_id), lower(${filter.q})) > 0`);
    return (await query.executeTakeFirstOrThrow()).n;
  },

  /** A page of datasets in dataset id order (GraphQL), forward or backward as KeysetPage says. */
  page: (trx: TenantTransaction, namespace: string | undefined, page: KeysetPage<string>) => {
    const forward = page.direction === 'forward';
    let query = trx.selectFrom('lake_datasets').select([...datasetColumns, latest, snapshotCount]);
    if (page.cursor !== undefined) query = query.where('dataset_id', forward ? '>' : '<', page.cursor);
    if (namespace) query = query.where('namespace', '=', namespace);
    return query.orderBy('dataset_id', forward ? 'asc' : 'desc').limit(page.limit).execute();
  },

  setLatest: (trx: TenantTransaction, ref: number, snapshotId: string, rowCount: number) =>
    trx.updateTable('lake_datasets')
      .set({ latest_snapshot_id: snapshotId, row_count: rowCount, updated_at: sql`now()` as never })
      .where('id', '=', ref).execute(),
};

export type DatasetRow = NonNullable<Awaited<ReturnType<typeof datasetsStore.find>>>;

const snapshotColumns = [
  sql<string>`snapshot_id::text`.as('snapshot_id'),
  sql<string | null>`parent_snapshot_id::text`.as('parent_snapshot_id'),
  'dataset_ref', 'operation', 'rows_staged', 'rows_added', 'rows_removed', 'row_count', 'summary', 'created_at',
] as const;

export const snapshotsStore = {
  nextId: async (trx: TenantTransaction) =>
    (await sql<{ id: string }>`SELECT nextval('lake_snapshot_ids')::text AS id`.execute(trx)).rows[0]!.id,

  insert: (trx: TenantTransaction, values: {
    snapshot_id: string; tenant_id: string; dataset_ref: number; parent_snapshot_id: string | null; shared: boolean;
    operation: string; rows_staged: number; rows_added: number; rows_removed: number; row_count: number; summary: Record<string, unknown>;
  }) => trx.insertInto('lake_snapshots').values({ ...values, summary: JSON.stringify(values.summary) }).execute(),

  /** Newest first. */
  list: (trx: TenantTransaction, ref: number, limit: number, beforeId?: string) => {
    let query = trx.selectFrom('lake_snapshots').select([...snapshotColumns]).where('dataset_ref', '=', ref);
    if (beforeId !== undefined) query = query.where('snapshot_id', '<', sql<string>`${beforeId}::bigint`);
    return query.orderBy('snapshot_id', 'desc').limit(limit).execute();
  },

  get: (trx: TenantTransaction, ref: number, snapshotId: string) =>
    trx.selectFrom('lake_snapshots').select([...snapshotColumns])
      .where('dataset_ref', '=', ref).where('snapshot_id', '=', sql<string>`${snapshotId}::bigint`).executeTakeFirst(),

  /** A page of a dataset's snapshots, newest first (GraphQL), forward or backward as KeysetPage says. */
  page: (trx: TenantTransaction, ref: number, page: KeysetPage<string>) => {
    const forward = page.direction === 'forward';
    let query = trx.selectFrom('lake_snapshots').select([...snapshotColumns]).where('dataset_ref', '=', ref);
    if (page.cursor !== undefined) query = query.where('snapshot_id', forward ? '<' : '>', sql<string>`${page.cursor}::bigint`);
    return query.orderBy('snapshot_id', forward ? 'desc' : 'asc').limit(page.limit).execute();
  },

  /** Snapshots by id, each of the dataset given with it (one query for a GraphQL batch). */
  byIds: async (trx: TenantTransaction, keys: readonly { ref: number; snapshotId: string }[]) => {
    if (!keys.length) return [];
    const rows = await trx.selectFrom('lake_snapshots').select([...snapshotColumns])
      .where('snapshot_id', '=', sql<string>`ANY(${keys.map((k) => k.snapshotId)}::bigint[])`)
      .where('dataset_ref', 'in', [...new Set(keys.map((k) => k.ref))]).execute();
    return rows;
  },

  /** The id of the `keep`-th newest snapshot: versions closed at or before it are needed by no kept snapshot. */
  retentionBoundary: async (trx: TenantTransaction, ref: number, keep: number) =>
    (await sql<{ id: string | null }>`
      SELECT snapshot_id::text AS id FROM lake_snapshots WHERE dataset_ref = ${ref}
      ORDER BY snapshot_id DESC OFFSET ${keep - 1} LIMIT 1`.execute(trx)).rows[0]?.id ?? null,

  deleteBefore: async (trx: TenantTransaction, ref: number, boundary: string) =>
    Number((await trx.deleteFrom('lake_snapshots').where('dataset_ref', '=', ref)
      .where('snapshot_id', '<', sql<string>`${boundary}::bigint`).executeTakeFirst()).numDeletedRows),
};

export type SnapshotRow = Awaited<ReturnType<typeof snapshotsStore.list>>[number];
