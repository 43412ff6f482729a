// What a sync writes, from the effective spec its run attempted: the key in
// the type's key order (key columns shaped by the identity policy's
// normalized rules go through its SQL normalizers), the mapped properties,
// and the lineage row key.
import type { DatasetInfo } from '../../lakehouse/api.ts';
import type { EffectiveSpec } from './fingerprint.ts';
import type { SyncKey, SyncShape } from '../store/entities.ts';

type NormalizeSql = (columnSql: string, normalizers: string[]) => string;

export function shapeOf(
  tenantId: string, backingDatasetId: string, spec: EffectiveSpec, dataset: DatasetInfo, sourceSql: string, snapshotId: string, normalizeSql?: NormalizeSql,
): SyncShape {
  const columnOf = new Map(spec.mappings.map((m) => [m.property, m.column]));
  const normalizersOf = new Map((spec.key_normalization ?? []).map((k) => [k.column, k.normalizers]));
  if (normalizersOf.size && !normalizeSql) throw new Error('the identity plugin is not loaded: key columns cannot be normalized');
  const keys = spec.entity_type.keys.map((property): SyncKey => {
    const column = columnOf.get(property)!;
    const normalizers = normalizersOf.get(column);
    return normalizers ? { property, column, normalize: (columnSql) => normalizeSql!(columnSql, normalizers) } : { property, column };
  });
  const primaryKey = dataset.primaryKey;
  // The dataset's primary key within unnormalized key columns: one row per entity key, no deduplication needed.
  const unique = normalizersOf.size === 0 && primaryKey.length > 0 && primaryKey.every((column) => spec.key_columns.includes(column));
  return {
    tenantId, entityType: spec.entity_type.code, backingDatasetId, datasetId: spec.dataset_id, snapshotId, sourceSql, keys,
    properties: spec.mappings.map((m): [string, string] => [m.property, m.column]),
    rowKeyColumns: primaryKey.length ? primaryKey : spec.key_columns,
    dedupe: !unique,
  };
}
