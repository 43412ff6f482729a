// SQL of entity types and their immutable versions (every query in a tenant transaction).
import { type KeysetPage, sql, type TenantTransaction } from 'agent-platform/sdk';

export interface Relationship { name: string; target_type: string; cardinality: 'one' | 'many'; via: string }

export interface EntityTypeDefinition {
  name: string;
  description: string | null;
  properties: Record<string, unknown>;
  keys: string[];
  relationships: Relationship[];
  carrier_types: string[];
}

export interface EntityTypeVersionRow extends EntityTypeDefinition {
  code: string;
  version: number;
  created_by: string | null;
  created_at: Date;
}

export interface EntityTypeRow extends EntityTypeVersionRow {
  current_version: number;
  deprecated_at: Date | null;
  updated_at: Date;
}

const versionColumns = sql`v.code, v.version, v.name, v.description, v.properties, v.keys, v.relationships, v.carrier_types, v.created_by, v.created_at`;

export const entityTypesStore = {
  async get(trx: TenantTransaction, code: string): Promise<EntityTypeRow | undefined> {
    const { rows } = await sql<EntityTypeRow>`
      SELECT ${versionColumns}, t.current_version, t.deprecated_at, t.updated_at
      FROM ontology_entity_types t JOIN ontology_entity_type_versions v ON v.code = t.code AND v.version = t.current_version
      WHERE t.code = ${code}`.execute(trx);
    return rows[0];
  },

  /** Locks the type's row (a new version or a delete serialize on it). */
  async lock(trx: TenantTransaction, code: string): Promise<boolean> {
    const { rows } = await sql`SELECT 1 FROM ontology_entity_types WHERE code = ${code} FOR UPDATE`.execute(trx);
    return rows.length > 0;
  },

  /** A keyset page of the types at their current versions by code, forward or backward as KeysetPage says. */
  async page(trx: TenantTransaction, page: KeysetPage<string>): Promise<EntityTypeRow[]> {
    const forward = page.direction === 'forward';
    const { rows } = await sql<EntityTypeRow>`
      SELECT ${versionColumns}, t.current_version, t.deprecated_at, t.updated_at
      FROM ontology_entity_types t JOIN ontology_entity_type_versions v ON v.code = t.code AND v.version = t.current_version
      WHERE ${page.cursor === undefined ? sql`true` : forward ? sql`t.code > ${page.cursor}` : sql`t.code < ${page.cursor}`}
      ORDER BY t.code ${sql.raw(forward ? 'ASC' : 'DESC')} LIMIT ${page.limit}`.execute(trx);
    return rows;
  },

  async count(trx: TenantTransaction): Promise<number> {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ontology_entity_types`.execute(trx);
    return rows[0]!.n;
  },

  async list(trx: TenantTransaction, after: string | undefined, limit: number): Promise<EntityTypeRow[]> {
    const { rows } = await sql<EntityTypeRow>`
      SELECT ${versionColumns}, t.current_version, t.deprecated_at, t.updated_at
      FROM ontology_entity_types t JOIN ontology_entity_type_versions v ON v.code = t.code AND v.version = t.current_version
      WHERE ${after === undefined ? sql`true` : sql`t.code > ${after}`}
      ORDER BY t.code LIMIT ${limit}`.execute(trx);
    return rows;
  },

  async version(trx: TenantTransaction, code: string, version: number): Promise<EntityTypeVersionRow | undefined> {
    const { rows } = await sql<EntityTypeVersionRow>`
      SELECT ${versionColumns} FROM ontology_entity_type_versions v WHERE v.code = ${code} AND v.version = ${version}`.execute(trx);
    return rows[0];
  },

  async versions(trx: TenantTransaction, code: string): Promise<EntityTypeVersionRow[]> {
    const { rows } = await sql<EntityTypeVersionRow>`
      SELECT ${versionColumns} FROM ontology_entity_type_versions v WHERE v.code = ${code} ORDER BY v.version`.execute(trx);
    return rows;
  },

  async insertType(trx: TenantTransaction, tenantId: string, code: string, createdBy: string): Promise<boolean> {
    const { rows } = await sql`
      INSERT INTO ontology_entity_types (tenant_id, code, current_version, created_by) VALUES (${tenantId}, ${code}, 1, ${createdBy})
      ON CONFLICT DO NOTHING RETURNING 1`.execute(trx);
    return rows.length > 0;
  },

  async insertVersion(trx: TenantTransaction, tenantId: string, code: string, version: number, definition: EntityTypeDefinition, createdBy: string): Promise<void> {
    await sql`
      INSERT INTO ontology_entity_type_versions (tenant_id, code, version, name, description, properties, keys, relationships, carrier_types, created_by)
      VALUES (${tenantId}, ${code}, ${version}, ${definition.name}, ${definition.description}, ${JSON.stringify(definition.properties)},
        ${definition.keys}, ${JSON.stringify(definition.relationships)}, ${definition.carrier_types}, ${createdBy})`.execute(trx);
    await sql`UPDATE ontology_entity_types SET current_version = ${version}, deprecated_at = NULL, updated_at = now() WHERE code = ${code}`.execute(trx);
  },

  deprecate: (trx: TenantTransaction, code: string) =>
    sql`UPDATE ontology_entity_types SET deprecated_at = coalesce(deprecated_at, now()), updated_at = now() WHERE code = ${code}`.execute(trx),

  remove: (trx: TenantTransaction, code: string) =>
    sql`DELETE FROM ontology_entity_types WHERE code = ${code}`.execute(trx),

  async usedBy(trx: TenantTransaction, code: string): Promise<number> {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ontology_backing_datasets WHERE entity_type = ${code}`.execute(trx);
    return rows[0]!.n;
  },
};
