// SQL of backing datasets (every query in a tenant transaction).
import { sql, type TenantTransaction } from 'agent-platform/sdk';

export interface Mapping { column: string; property: string }

export interface BackingDatasetRow {
  id: string;
  name: string;
  dataset_id: string;
  entity_type: string;
  entity_type_version: number | null;
  mappings: Mapping[];
  key_columns: string[];
  identity_policy_id: string | null;
  applied_sync_spec_fingerprint: string | null;
  applied_snapshot_id: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export type BackingDatasetSpec = Pick<BackingDatasetRow, 'name' | 'dataset_id' | 'entity_type' | 'entity_type_version' | 'mappings' | 'key_columns' | 'identity_policy_id'>;

const columns = sql`id, name, dataset_id, entity_type, entity_type_version, mappings, key_columns, identity_policy_id,
  applied_sync_spec_fingerprint, applied_snapshot_id::text AS applied_snapshot_id, created_by, created_at, updated_at`;

export const backingDatasetsStore = {
  async get(trx: TenantTransaction, id: string, lock = false): Promise<BackingDatasetRow | undefined> {
    const { rows } = await sql<BackingDatasetRow>`SELECT ${columns} FROM ontology_backing_datasets WHERE id = ${id} ${lock ? sql`FOR UPDATE` : sql``}`.execute(trx);
    return rows[0];
  },

  async byName(trx: TenantTransaction, name: string): Promise<BackingDatasetRow | undefined> {
    const { rows } = await sql<BackingDatasetRow>`SELECT ${columns} FROM ontology_backing_datasets WHERE name = ${name}`.execute(trx);
    return rows[0];
  },

  async list(trx: TenantTransaction, after: string | undefined, limit: number): Promise<BackingDatasetRow[]> {
    const { rows } = await sql<BackingDatasetRow>`SELECT ${columns} FROM ontology_backing_datasets
      WHERE ${after === undefined ? sql`true` : sql`name > ${after}`} ORDER BY name LIMIT ${limit}`.execute(trx);
    return rows;
  },

  async all(trx: TenantTransaction): Promise<BackingDatasetRow[]> {
    const { rows } = await sql<BackingDatasetRow>`SELECT ${columns} FROM ontology_backing_datasets ORDER BY name`.execute(trx);
    return rows;
  },

  async insert(trx: TenantTransaction, tenantId: string, spec: BackingDatasetSpec, createdBy: string): Promise<string | undefined> {
    const { rows } = await sql<{ id: string }>`
      INSERT INTO ontology_backing_datasets (tenant_id, name, dataset_id, entity_type, entity_type_version, mappings, key_columns, identity_policy_id, created_by)
      VALUES (${tenantId}, ${spec.name}, ${spec.dataset_id}, ${spec.entity_type}, ${spec.entity_type_version}, ${JSON.stringify(spec.mappings)},
        ${spec.key_columns}, ${spec.identity_policy_id}, ${createdBy})
      ON CONFLICT (tenant_id, name) DO NOTHING RETURNING id`.execute(trx);
    return rows[0]?.id;
  },

  update: (trx: TenantTransaction, id: string, spec: BackingDatasetSpec) => sql`
    UPDATE ontology_backing_datasets SET name = ${spec.name}, dataset_id = ${spec.dataset_id}, entity_type = ${spec.entity_type},
      entity_type_version = ${spec.entity_type_version}, mappings = ${JSON.stringify(spec.mappings)}, key_columns = ${spec.key_columns},
      identity_policy_id = ${spec.identity_policy_id}, updated_at = now()
    WHERE id = ${id}`.execute(trx),

  remove: (trx: TenantTransaction, id: string) => sql`DELETE FROM ontology_backing_datasets WHERE id = ${id}`.execute(trx),

  /** What a successful sync applied (in the sync's own transaction). */
  setApplied: (trx: TenantTransaction, id: string, fingerprint: string, snapshotId: string) => sql`
    UPDATE ontology_backing_datasets SET applied_sync_spec_fingerprint = ${fingerprint}, applied_snapshot_id = ${snapshotId}::bigint WHERE id = ${id}`.execute(trx),
};
