// SQL of entities: the set-based sync statement (one INSERT … SELECT …
// ON CONFLICT from the lake's as-of SQL with its anti-join DELETE) and the reads
// of GraphQL. Identifiers are quoted here; values are parameters; the only
// raw SQL is the lakehouse's own as-of SELECT.
import { type KeysetPage, sql, type TenantTransaction } from 'agent-platform/sdk';

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
// Property names are checked identifiers (services/entity-types.ts); quoting is belt and braces.
const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** What a sync writes: which source columns become the key, the properties and the lineage key. */
export interface SyncShape {
  tenantId: string;
  entityType: string;
  backingDatasetId: string;
  datasetId: string;
  snapshotId: string;
  /** The lake's SELECT of the snapshot's rows (LakehouseApi.asOf). */
  sourceSql: string;
  /** The key properties and their source columns, in the type's key order. */
  keys: SyncKey[];
  /** [property, source column]. */
  properties: [string, string][];
  /** Source columns identifying the row (the dataset's primary key, else the key columns). */
  rowKeyColumns: string[];
  /** Several rows may share an entity key (the key is not the dataset's primary key, or is normalized): keep the first by row key. */
  dedupe: boolean;
}

export interface SyncKey {
  property: string;
  column: string;
  /** The identity policy's SQL normalization of the column (an SQL expression of the column's); absent: the value as given. */
  normalize?: (columnSql: string) => string;
}

const keyValueOf = (key: SyncKey) => (key.normalize ? key.normalize(`src.${quoteIdent(key.column)}`) : `src.${quoteIdent(key.column)}`);

/** [property, SQL value] pairs as one jsonb object. */
function objectOf(pairs: [string, string][]): string {
  if (!pairs.length) return `'{}'::jsonb`;
  // jsonb_build_object takes at most 100 arguments: 50 pairs a call.
  const chunks: string[] = [];
  for (let i = 0; i < pairs.length; i += 50) {
    chunks.push(`jsonb_build_object(${pairs.slice(i, i + 50).map(([p, value]) => `${quoteLiteral(p)}, ${value}`).join(', ')})`);
  }
  return chunks.join(' || ');
}

/**
 * The snapshot's rows as entities: the key (normalized key values, when the
 * identity policy shapes them), the key values as keyed, the properties as
 * given, the lineage row key. Rows with a null key (or one normalized to
 * nothing) are left out. With `dedupe`, one row per key: the first by source
 * row key (DISTINCT ON the key, ordered by the row key), so several rows of
 * a snapshot that make one entity never meet twice in one INSERT … ON CONFLICT.
 */
function rowsOf(shape: SyncShape): string {
  const keyValues = shape.keys.map(keyValueOf);
  const key = `jsonb_build_array(${keyValues.join(', ')})::text`;
  const rowKey = `jsonb_build_array(${shape.rowKeyColumns.map((c) => `src.${quoteIdent(c)}`).join(', ')})::text`;
  const notNull = keyValues.map((value) => `${value} IS NOT NULL`).join(' AND ');
  const keyObject = objectOf(shape.keys.map((k, i): [string, string] => [k.property, keyValues[i]!]));
  const properties = objectOf(shape.properties.map(([p, c]): [string, string] => [p, `src.${quoteIdent(c)}`]));
  return `SELECT ${shape.dedupe ? `DISTINCT ON (${key}) ` : ''}${key} AS key, ${keyObject} AS key_values, ${properties} AS properties, ${rowKey} AS source_row_key
    FROM (${shape.sourceSql}) src WHERE ${notNull}${shape.dedupe ? ` ORDER BY ${key}, ${rowKey}` : ''}`;
}

const entityColumns = sql`entity_type, key, key_values, properties, backing_dataset_id, dataset_id, snapshot_id::text AS snapshot_id, source_row_key, synced_at`;

/** The keyset condition of a page in key order: after the cursor forward, before it backward. */
const keyAfter = (page: KeysetPage<string>) =>
  (page.cursor === undefined ? sql`` : page.direction === 'forward' ? sql`AND key > ${page.cursor}` : sql`AND key < ${page.cursor}`);

/** Entities of a type matching a `where` filter. */
function matching(entityType: string, filter: EntityFilter) {
  const related = filter.related.map((r) => {
    const targets = sql`SELECT t.properties -> ${r.targetKey} FROM ontology_entities t WHERE t.entity_type = ${r.targetType} AND t.properties @> ${JSON.stringify(r.contains)}::jsonb`;
    return r.many
      ? sql`AND EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(properties -> ${r.via}) = 'array' THEN properties -> ${r.via} ELSE '[]' END) v WHERE v IN (${targets}))`
      : sql`AND properties -> ${r.via} IN (${targets})`;
  });
  return sql`entity_type = ${entityType}
    ${filter.contains ? sql`AND properties @> ${JSON.stringify(filter.contains)}::jsonb` : sql``}
    ${related.length ? sql.join(related, sql` `) : sql``}`;
}

/** Entities of a type whose property equals one of the values. */
const havingProperty = (entityType: string, property: string, values: unknown[]) =>
  sql`entity_type = ${entityType} AND properties -> ${property} = ANY (SELECT jsonb_array_elements(${JSON.stringify(values)}::jsonb))`;

export const entitiesStore = {
  /**
   * One pass over the snapshot: inserts new entities, updates changed ones
   * (unchanged rows are left alone) and removes this backing dataset's
   * entities whose key left the snapshot, in one statement. The snapshot's
   * entity rows are materialized once (a CTE read by both writes), so the
   * lake's as-of SQL is scanned once. The stale keys are one hashed set
   * difference against them, materialized (a NOT EXISTS anti-join let the
   * planner, misled by a fresh table's missing statistics, rescan the CTE
   * for every entity: quadratic), each then deleted through the primary key.
   * Both writes see the statement's snapshot: the DELETE never meets a row
   * the INSERT writes (its keys are in the snapshot), and the INSERT never
   * one the DELETE removes (its keys are not). When the backing dataset has
   * no entity yet (a first sync) nothing can be stale: the statement is the
   * upsert alone, streaming the rows without materializing them.
   */
  async apply(trx: TenantTransaction, shape: SyncShape): Promise<{ written: number; removed: number }> {
    const { rows: existing } = await sql`SELECT 1 FROM ontology_entities WHERE tenant_id = ${shape.tenantId} AND backing_dataset_id = ${shape.backingDatasetId}::uuid LIMIT 1`.execute(trx);
    const stalePart = existing.length > 0;
    const { rows } = await sql<{ written: number; removed: number }>`
      WITH s AS ${stalePart ? sql`MATERIALIZED` : sql`NOT MATERIALIZED`} (${sql.raw(rowsOf(shape))}),
      upserted AS (
        INSERT INTO ontology_entities AS e (tenant_id, entity_type, key, key_values, properties, backing_dataset_id, dataset_id, snapshot_id, source_row_key)
        SELECT ${shape.tenantId}, ${shape.entityType}, s.key, s.key_values, s.properties, ${shape.backingDatasetId}::uuid, ${shape.datasetId}, ${shape.snapshotId}::bigint, s.source_row_key
        FROM s
        ON CONFLICT (tenant_id, entity_type, key) DO UPDATE SET key_values = excluded.key_values, properties = excluded.properties,
          backing_dataset_id = excluded.backing_dataset_id, dataset_id = excluded.dataset_id, snapshot_id = excluded.snapshot_id,
          source_row_key = excluded.source_row_key, synced_at = now()
        WHERE (e.properties, e.key_values, e.backing_dataset_id, e.dataset_id, e.source_row_key)
          IS DISTINCT FROM (excluded.properties, excluded.key_values, excluded.backing_dataset_id, excluded.dataset_id, excluded.source_row_key)
        RETURNING 1
      )${stalePart ? sql`,
      stale_keys AS MATERIALIZED (
        SELECT key FROM ontology_entities WHERE backing_dataset_id = ${shape.backingDatasetId}::uuid AND entity_type = ${shape.entityType}
        EXCEPT
        SELECT key FROM s
      ),
      stale AS (
        DELETE FROM ontology_entities e USING stale_keys
        WHERE e.tenant_id = ${shape.tenantId} AND e.entity_type = ${shape.entityType} AND e.key = stale_keys.key AND e.backing_dataset_id = ${shape.backingDatasetId}::uuid
        RETURNING 1
      )` : sql``}
      SELECT (SELECT count(*) FROM upserted)::int AS written, ${stalePart ? sql`(SELECT count(*) FROM stale)` : sql`0`}::int AS removed`.execute(trx);
    return rows[0]!;
  },

  /** Rows of the snapshot lacking a value for one of `columns` (mapped onto required properties). */
  async missing(trx: TenantTransaction, sourceSql: string, columns: string[]): Promise<number> {
    if (!columns.length) return 0;
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (${sql.raw(sourceSql)}) src
      WHERE ${sql.raw(columns.map((c) => `src.${quoteIdent(c)} IS NULL`).join(' OR '))}`.execute(trx);
    return rows[0]!.n;
  },

  async count(trx: TenantTransaction, backingDatasetId: string): Promise<number> {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ontology_entities WHERE backing_dataset_id = ${backingDatasetId}::uuid`.execute(trx);
    return rows[0]!.n;
  },

  /** A keyset page of a type's entities matching `filter` (properties containment, related entities' containment), in key order. */
  async list(trx: TenantTransaction, entityType: string, filter: EntityFilter, page: KeysetPage<string>) {
    const { rows } = await sql<EntityRow>`
      SELECT ${entityColumns} FROM ontology_entities WHERE ${matching(entityType, filter)} ${keyAfter(page)}
      ORDER BY key ${sql.raw(page.direction === 'forward' ? 'ASC' : 'DESC')} LIMIT ${page.limit}`.execute(trx);
    return rows;
  },

  /** How many of a type's entities match `filter`. */
  async countMatching(trx: TenantTransaction, entityType: string, filter: EntityFilter): Promise<number> {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ontology_entities WHERE ${matching(entityType, filter)}`.execute(trx);
    return rows[0]!.n;
  },

  /** A keyset page of a type's entities whose property `property` equals one of `values` (relationship traversal), in key order. */
  async byProperty(trx: TenantTransaction, entityType: string, property: string, values: unknown[], page: KeysetPage<string>) {
    const { rows } = await sql<EntityRow>`
      SELECT ${entityColumns} FROM ontology_entities WHERE ${havingProperty(entityType, property, values)} ${keyAfter(page)}
      ORDER BY key ${sql.raw(page.direction === 'forward' ? 'ASC' : 'DESC')} LIMIT ${page.limit}`.execute(trx);
    return rows;
  },

  /** How many of a type's entities have property `property` equal to one of `values`. */
  async countByProperty(trx: TenantTransaction, entityType: string, property: string, values: unknown[]): Promise<number> {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ontology_entities WHERE ${havingProperty(entityType, property, values)}`.execute(trx);
    return rows[0]!.n;
  },

  /** The first rows of a dataset's snapshot (mapping suggestions look at their values). */
  async sample(trx: TenantTransaction, sourceSql: string, limit: number): Promise<Record<string, unknown>[]> {
    const { rows } = await sql<Record<string, unknown>>`SELECT * FROM (${sql.raw(sourceSql)}) src LIMIT ${limit}`.execute(trx);
    return rows;
  },
};

/** A `where` of GraphQL: property values the entity has, and values its related entities have. */
export interface EntityFilter {
  contains?: Record<string, unknown>;
  related: { via: string; many: boolean; targetType: string; targetKey: string; contains: Record<string, unknown> }[];
}

export interface EntityRow {
  entity_type: string;
  key: string;
  key_values: Record<string, unknown>;
  properties: Record<string, unknown>;
  backing_dataset_id: string;
  dataset_id: string;
  snapshot_id: string;
  source_row_key: string;
  synced_at: Date;
}
