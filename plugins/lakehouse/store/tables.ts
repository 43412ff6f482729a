// kysely types of the lakehouse registry (sql/0001_init.sql), added to the
// SDK's Database by declaration merging. Lake tables themselves are created at
// run time and are queried with SQL built in store/ (their columns vary).
import type { ColumnType, Generated } from 'agent-platform/sdk';
import type { LakeColumn } from '../datasets/types.ts';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/** bigint snapshot ids read as text: they pass 2^53. */
type SnapshotId = ColumnType<string, string | bigint, string | bigint>;

export interface LakeDatasetsTable {
  id: Generated<number>;
  tenant_id: string;
  dataset_id: string;
  namespace: string;
  layer: string;
  table_name: string;
  physical_table: string;
  shared: ColumnType<boolean, boolean | undefined, boolean>;
  producer_kind: string;
  producer_id: string;
  producer_name: string | null;
  columns: ColumnType<LakeColumn[], string, string>;
  primary_key: ColumnType<string[], string[] | undefined, string[]>;
  latest_snapshot_id: ColumnType<string | null, string | null | undefined, string | null>;
  row_count: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface LakeSnapshotsTable {
  snapshot_id: SnapshotId;
  tenant_id: string;
  dataset_ref: number;
  parent_snapshot_id: ColumnType<string | null, string | null | undefined, string | null>;
  shared: ColumnType<boolean, boolean | undefined, boolean>;
  operation: string;
  rows_staged: ColumnType<number, number | undefined, number>;
  rows_added: ColumnType<number, number | undefined, number>;
  rows_removed: ColumnType<number, number | undefined, number>;
  row_count: ColumnType<number, number | undefined, number>;
  summary: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: CreatedAt;
}

declare module 'agent-platform/sdk' {
  interface Database {
    lake_datasets: LakeDatasetsTable;
    lake_snapshots: LakeSnapshotsTable;
  }
}
