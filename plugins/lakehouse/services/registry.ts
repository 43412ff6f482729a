// Datasets come into being (and gain columns) here: the registry entry and
// the lake table, in one DDL transaction on the platform's connection.
import { badRequest, conflict, forbidden, type CoreServices } from 'agent-platform/sdk';
import type { DatasetSpec } from '../api.ts';
import { columnNameFor, isNamespace, isTenantLayer, parseDatasetId, physicalTableOf, type DatasetName } from '../datasets/naming.ts';
import { ddlStore } from '../store/ddl.ts';
import { isLakeType, type LakeColumn } from '../datasets/types.ts';

/** Who may create a dataset of this name: its tenant in its own layer; a shared layer only as shared. */
export function checkWritableName(tenantId: string, name: DatasetName, shared: boolean): void {
  if (!isNamespace(name.namespace)) throw badRequest(`Unknown namespace "${name.namespace}": raw, derived, registry or sandbox`, 'DATASET_NAMESPACE_UNKNOWN');
  if (isTenantLayer(name.layer)) {
    if (name.layer !== tenantId) throw forbidden(`Dataset ${name.id} belongs to another tenant's layer`, 'DATASET_FORBIDDEN');
    if (shared) throw badRequest('A tenant\'s own layer is never shared: a shared dataset lives in a shared layer', 'DATASET_NOT_SHAREABLE');
  } else if (!shared) {
    throw badRequest(`"${name.layer}" is a shared layer: its datasets are shared`, 'DATASET_SHARED_LAYER');
  }
  if (name.namespace === 'registry' && !shared) throw badRequest('Registry datasets are shared', 'DATASET_SHARED_LAYER');
  if (shared && name.namespace !== 'raw' && name.namespace !== 'registry') throw badRequest('Only raw and registry datasets are shared', 'DATASET_NOT_SHAREABLE');
}

/** The columns after adding the requested ones: new properties get a column, known ones keep theirs (a changed type becomes text). */
export function mergeColumns(existing: LakeColumn[], wanted: DatasetSpec['columns']) {
  const columns = existing.map((column) => ({ ...column }));
  const byName = new Map(columns.map((column) => [column.name, column]));
  const taken = new Set(columns.map((column) => column.column));
  const added: LakeColumn[] = [];
  const widened: LakeColumn[] = [];
  for (const { name, type } of wanted) {
    if (!isLakeType(type)) throw badRequest(`Unknown column type "${String(type)}"`, 'DATASET_COLUMN_TYPE');
    const known = byName.get(name);
    if (!known) {
      const column: LakeColumn = { name, column: columnNameFor(name, taken), type };
      taken.add(column.column);
      byName.set(name, column);
      columns.push(column);
      added.push(column);
    } else if (known.type !== type && known.type !== 'text') {
      known.type = 'text';
      widened.push(known);
    }
  }
  return { columns, added, widened };
}

export function createRegistry(core: CoreServices) {
  return {
    async ensure(tenantId: string, spec: DatasetSpec): Promise<void> {
      const name = parseDatasetId(spec.datasetId);
      const shared = spec.shared ?? false;
      checkWritableName(tenantId, name, shared);
      const names = new Set<string>();
      for (const column of spec.columns) {
        if (typeof column.name !== 'string' || column.name.length === 0 || column.name.includes('\u0000')) throw badRequest('Column names are non-empty text', 'DATASET_COLUMN_NAME');
        if (names.has(column.name)) throw badRequest(`Column "${column.name}" is declared twice`, 'DATASET_COLUMN_NAME');
        names.add(column.name);
      }
      const primaryKey = spec.primaryKey ?? [];
      for (const key of primaryKey) {
        if (!names.has(key)) throw badRequest(`Primary key "${key}" is not a column of ${spec.datasetId}`, 'DATASET_PRIMARY_KEY');
      }
      await ddlStore.inTenantDdl(core.db, tenantId, async (trx) => {
        const found = await ddlStore.find(trx, spec.datasetId);
        const table = { namespace: name.namespace, physicalTable: found?.physical_table ?? physicalTableOf(name), shared: found?.shared ?? shared, owner: tenantId };
        if (found && found.tenant_id !== tenantId) throw conflict(`Dataset ${spec.datasetId} belongs to another tenant`, 'DATASET_OWNED_ELSEWHERE');
        const { columns, added, widened } = mergeColumns(found?.columns ?? [], spec.columns);
        const keyColumns = primaryKey.map((key) => columns.find((column) => column.name === key)!.column);
        if (!found) {
          await ddlStore.createTable(trx, table, columns);
          await ddlStore.replaceKeyIndex(trx, table, keyColumns);
          await ddlStore.insert(trx, {
            tenant_id: tenantId, dataset_id: spec.datasetId, namespace: name.namespace, layer: name.layer, table_name: name.table,
            physical_table: table.physicalTable, shared, producer_kind: spec.producer.kind, producer_id: spec.producer.id,
            producer_name: spec.producer.name ?? null, columns, primary_key: primaryKey,
          });
          return;
        }
        await ddlStore.addColumns(trx, table, added);
        for (const column of widened) await ddlStore.widenToText(trx, table, column.column);
        const keyChanged = primaryKey.join('\u0000') !== (found.primary_key ?? []).join('\u0000');
        if (keyChanged) await ddlStore.replaceKeyIndex(trx, table, keyColumns);
        const renamed = spec.producer.name !== undefined && spec.producer.name !== found.producer_name;
        if (added.length || widened.length || keyChanged || renamed) {
          await ddlStore.update(trx, found.id, { columns, primary_key: primaryKey, producer_name: spec.producer.name ?? found.producer_name });
        }
      });
    },
  };
}
