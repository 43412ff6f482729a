// What a sync writes, from the effective spec its run attempted: the key in
// the type's key order, the mapped properties, and the lineage row key.
import type { DatasetInfo } from '../../lakehouse/api.ts';
import type { EffectiveSpec } from '../fingerprint.ts';
import type { SyncShape } from '../store/entities.ts';

export function shapeOf(tenantId: string, backingDatasetId: string, spec: EffectiveSpec, dataset: DatasetInfo, sourceSql: string, snapshotId: string): SyncShape {
  const columnOf = new Map(spec.mappings.map((m) => [m.property, m.column]));
  const keys = spec.entity_type.keys.map((key): [string, string] => [key, columnOf.get(key)!]);
  const primaryKey = dataset.primaryKey;
  // The dataset's primary key within the key columns: one row per entity key, no deduplication needed.
  const unique = primaryKey.length > 0 && primaryKey.every((column) => spec.key_columns.includes(column));
  return {
    tenantId, entityType: spec.entity_type.code, backingDatasetId, datasetId: spec.dataset_id, snapshotId, sourceSql, keys,
    properties: spec.mappings.map((m): [string, string] => [m.property, m.column]),
    rowKeyColumns: primaryKey.length ? primaryKey : spec.key_columns,
    dedupe: !unique,
  };
}
