// JSON views of datasets and snapshots. Snapshot ids are 64-bit: each goes
// out twice, as the deprecated number and as its
// `_exact` decimal string. The number is written with its exact digits
// (JSON.rawJSON), so a client that parses big integers exactly still gets it
// right; one that parses into doubles (JavaScript) loses precision past 2^53
// and must compare the `_exact` field.
import type { LakeColumn } from './types.ts';
import { jsonSchemaOfType } from './types.ts';
import type { DatasetRow, SnapshotRow } from '../store/datasets.ts';

const rawJson = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

/** The deprecated numeric form of a snapshot id: the exact digits as a JSON number. */
export function snapshotNumber(id: string | null): unknown {
  return id === null ? null : rawJson(id);
}

/** `{<name>: number, <name>_exact: string}` for one snapshot id field. */
export function exactPair<N extends string>(name: N, id: string | null): { [K in N]: unknown } & { [K in `${N}_exact`]: string | null } {
  return { [name]: snapshotNumber(id), [`${name}_exact`]: id } as never;
}

export function columnView(column: LakeColumn) {
  return { name: column.name, type: column.type, json_schema: jsonSchemaOfType(column.type) };
}

export function datasetView(row: DatasetRow, tenantId: string) {
  return {
    id: row.dataset_id,
    namespace: row.namespace,
    layer: row.layer,
    table: row.table_name,
    shared: row.shared,
    owned: row.tenant_id === tenantId,
    producer: { kind: row.producer_kind, id: row.producer_id, name: row.producer_name },
    columns: row.columns.map(columnView),
    primary_key: row.primary_key,
    row_count: row.row_count,
    snapshot_count: row.snapshot_count,
    ...exactPair('latest_snapshot_id', row.latest_snapshot_id),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function snapshotView(row: SnapshotRow) {
  return {
    ...exactPair('snapshot_id', row.snapshot_id),
    ...exactPair('parent_snapshot_id', row.parent_snapshot_id),
    operation: row.operation,
    rows_staged: row.rows_staged,
    rows_added: row.rows_added,
    rows_removed: row.rows_removed,
    row_count: row.row_count,
    summary: row.summary,
    created_at: row.created_at,
  };
}

/** Preview values as JSON: bigint within 2^53 as numbers, beyond as decimal strings; numeric and date as strings. */
export function previewRow(row: Record<string, unknown>, columns: LakeColumn[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of columns) {
    const value = row[column.name];
    if (column.type === 'bigint' && typeof value === 'string') {
      const asNumber = Number(value);
      out[column.name] = Number.isSafeInteger(asNumber) ? asNumber : value;
    } else {
      out[column.name] = value ?? null;
    }
  }
  return out;
}
