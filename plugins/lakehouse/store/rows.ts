// The SQL of lake tables' rows: staging, the set-based statements that make a
// snapshot, reads as of a snapshot, retention. Every statement runs in a
// tenant transaction, so row-level security on _tenant_id holds (PostgreSQL
// refuses COPY into a table under row-level security: rows are COPYed into a
// temporary staging table, which has none, then inserted from it).
// Identifiers come quoted from datasets/naming.ts; snapshot ids are checked digits.
import { CompiledQuery } from 'kysely';
import { sql, type TenantTransaction } from 'agent-platform/sdk';
import { quoteIdent } from '../datasets/naming.ts';
import { LAKE_TYPES, type LakeColumn } from '../datasets/types.ts';

/** A lake table as one write or read sees it. */
export interface RowsTarget {
  /** schema."table", quoted. */
  relation: string;
  /** Every data column of the table (a write stages them all: what a source does not send is null). */
  columns: LakeColumn[];
}

const DIGITS = /^\d{1,19}$/;
function snapshotLiteral(id: string): string {
  if (!DIGITS.test(id)) throw new Error('a snapshot id is a 64-bit unsigned integer');
  return `${id}::bigint`;
}

async function affected(trx: TenantTransaction, statement: string): Promise<number> {
  const result = await sql.raw(statement).execute(trx);
  return Number(result.numAffectedRows ?? 0n);
}

const list = (columns: LakeColumn[], prefix = '') => columns.map((column) => `${prefix}${quoteIdent(column.column)}`).join(', ');
const rowOf = (columns: LakeColumn[], alias: string) => (columns.length ? `ROW(${list(columns, `${alias}.`)})` : 'ROW(0)');
const keyMatch = (keys: string[], left: string, right: string) =>
  keys.map((key) => `${left}.${quoteIdent(key)} = ${right}.${quoteIdent(key)}`).join(' AND ');
const current = (alias: string) => `${alias}._snapshot_to IS NULL`;
/**
 * The acting tenant as an InitPlan (evaluated once per statement): inserts
 * name `_tenant_id` with it instead of leaving it to the column default, which
 * calls current_setting for every row.
 */
const ACTING_TENANT = `(SELECT current_setting('app.tenant_id'))`;

export const rowsStore = {
  /**
   * A temporary table with every data column, dropped at commit: no index, no
   * WAL. The arrival order (an identity: a sequence step per row) only when the
   * write deduplicates the batch, the one statement that reads it.
   */
  async createStage(trx: TenantTransaction, stage: string, columns: LakeColumn[], arrivalOrder: boolean): Promise<void> {
    const definitions = columns.map((column) => `${quoteIdent(column.column)} ${LAKE_TYPES[column.type]}`);
    if (arrivalOrder) definitions.push('_ord bigint GENERATED ALWAYS AS IDENTITY');
    await sql.raw(`CREATE TEMP TABLE ${quoteIdent(stage)} (${definitions.join(', ')}) ON COMMIT DROP`).execute(trx);
  },

  /** The COPY … FROM STDIN statement landing `columns` (in that order) into `relation` (quoted): the stage, or a first load's table. */
  copyInto: (relation: string, columns: LakeColumn[], format: 'text' | 'binary' = 'text') =>
    `COPY ${relation} (${list(columns)}) FROM STDIN${format === 'binary' ? ' (FORMAT binary)' : ''}`,

  /**
   * Opens a first load of the dataset's table (sql/0004): until the write
   * commits, rows COPYed into it are versions from `snapshot` of the acting
   * tenant (a CHECK constraint stands in for row-level security, which refuses
   * COPY); false when the table already holds a row.
   */
  async beginBulkLoad(trx: TenantTransaction, datasetRef: number, snapshot: string): Promise<boolean> {
    const { rows } = await sql<{ opened: boolean }>`SELECT lake_bulk_load_begin(${datasetRef}, ${snapshot}::bigint) AS opened`.execute(trx);
    return rows[0]!.opened;
  },

  /** Puts the table back as lake tables are (policy, defaults) and builds its key index. */
  async endBulkLoad(trx: TenantTransaction, datasetRef: number): Promise<void> {
    await sql`SELECT lake_bulk_load_end(${datasetRef})`.execute(trx);
  },

  /** Lands a SELECT's rows (its columns in the order of `columns`); the number landed. */
  async insertFromQuery(trx: TenantTransaction, stage: string, columns: LakeColumn[], query: string, parameters: unknown[]): Promise<number> {
    const result = await trx.executeQuery(CompiledQuery.raw(`INSERT INTO ${quoteIdent(stage)} (${list(columns)}) ${query}`, parameters));
    return Number(result.numAffectedRows ?? 0n);
  },

  /**
   * Inserts a SELECT's rows (its columns in the order of `columns`) straight into the table as versions from
   * `snapshot`; how many. The tenant goes in as a bound value (row-level security still checks it) rather than
   * the column default, which would call current_setting once per row.
   */
  async insertQueryAt(trx: TenantTransaction, target: RowsTarget, columns: LakeColumn[], query: string, parameters: unknown[], snapshot: string, tenantId: string): Promise<number> {
    const statement = `INSERT INTO ${target.relation} (_tenant_id, _snapshot_from${columns.length ? `, ${list(columns)}` : ''})
      SELECT $${parameters.length + 1}::text, ${snapshotLiteral(snapshot)}, q.* FROM (${query}) AS q`;
    const result = await trx.executeQuery(CompiledQuery.raw(statement, [...parameters, tenantId]));
    return Number(result.numAffectedRows ?? 0n);
  },

  /** The cursor column's maximum over the landed rows (`relation`, quoted), as text (the number of rows comes from the landing itself). */
  async cursorMax(trx: TenantTransaction, relation: string, cursor: LakeColumn): Promise<string | null> {
    const { rows } = await sql.raw<{ cursor_max: string | null }>(`SELECT max(${quoteIdent(cursor.column)})::text AS cursor_max FROM ${relation}`).execute(trx);
    return rows[0]!.cursor_max;
  },

  /** One row per key: the newest by cursor, then by arrival. */
  async dedupe(trx: TenantTransaction, stage: string, batch: string, keys: string[], cursor: LakeColumn | undefined): Promise<void> {
    const order = [...keys.map(quoteIdent), ...(cursor ? [`${quoteIdent(cursor.column)} DESC NULLS LAST`] : []), '_ord DESC'];
    await sql.raw(`CREATE TEMP TABLE ${quoteIdent(batch)} ON COMMIT DROP AS
      SELECT DISTINCT ON (${keys.map(quoteIdent).join(', ')}) * FROM ${quoteIdent(stage)} ORDER BY ${order.join(', ')}`).execute(trx);
  },

  /** Drops the dataset's key index for a first load (sql/0002: as the owner, for the acting tenant's dataset only); whether it had one. */
  async dropKeyIndex(trx: TenantTransaction, datasetRef: number): Promise<boolean> {
    const { rows } = await sql<{ dropped: boolean }>`SELECT lake_drop_key_index(${datasetRef}) AS dropped`.execute(trx);
    return rows[0]!.dropped;
  },

  /** Builds the dataset's key index again, once, over the loaded rows. */
  async createKeyIndex(trx: TenantTransaction, datasetRef: number): Promise<void> {
    await sql`SELECT lake_create_key_index(${datasetRef})`.execute(trx);
  },

  /** Every staged row as a new version (append; a first overwrite). */
  appendAll: (trx: TenantTransaction, target: RowsTarget, from: string, snapshot: string) =>
    affected(trx, `INSERT INTO ${target.relation} (_tenant_id, _snapshot_from${target.columns.length ? `, ${list(target.columns)}` : ''})
      SELECT ${ACTING_TENANT}, ${snapshotLiteral(snapshot)}${target.columns.length ? `, ${list(target.columns)}` : ''} FROM ${quoteIdent(from)}`),

  /** Closes every current version (an overwrite without a key). */
  closeAll: (trx: TenantTransaction, target: RowsTarget, snapshot: string) =>
    affected(trx, `UPDATE ${target.relation} SET _snapshot_to = ${snapshotLiteral(snapshot)} WHERE _snapshot_to IS NULL`),

  /** Whether the current rows are exactly the staged ones (as multisets): an overwrite that changes nothing. */
  async sameAsCurrent(trx: TenantTransaction, target: RowsTarget, stage: string): Promise<boolean> {
    const columns = target.columns.length ? list(target.columns) : '0';
    const { rows } = await sql.raw<{ same: boolean }>(`SELECT
      NOT EXISTS (SELECT ${columns} FROM ${target.relation} WHERE _snapshot_to IS NULL EXCEPT ALL SELECT ${columns} FROM ${quoteIdent(stage)})
      AND NOT EXISTS (SELECT ${columns} FROM ${quoteIdent(stage)} EXCEPT ALL SELECT ${columns} FROM ${target.relation} WHERE _snapshot_to IS NULL) AS same`).execute(trx);
    return rows[0]!.same;
  },

  /**
   * New versions of the batch rows that differ from their key's current
   * version (or have none). With a cursor, a row older than the current
   * version of its key is not taken (a late arrival never replaces newer data).
   */
  insertChanged: (trx: TenantTransaction, target: RowsTarget, batch: string, keys: string[], snapshot: string, cursor?: LakeColumn) =>
    affected(trx, `INSERT INTO ${target.relation} (_tenant_id, _snapshot_from, ${list(target.columns)})
      SELECT ${ACTING_TENANT}, ${snapshotLiteral(snapshot)}, ${list(target.columns, 'b.')} FROM ${quoteIdent(batch)} b
      WHERE NOT EXISTS (SELECT 1 FROM ${target.relation} l WHERE ${current('l')} AND ${keyMatch(keys, 'l', 'b')}
        AND (${rowOf(target.columns, 'l')} IS NOT DISTINCT FROM ${rowOf(target.columns, 'b')}${cursor ? ` OR l.${quoteIdent(cursor.column)} > b.${quoteIdent(cursor.column)}` : ''}))`),

  /** Overwrite: closes the current versions older than the snapshot that the batch does not hold unchanged. */
  closeNotIn: (trx: TenantTransaction, target: RowsTarget, batch: string, keys: string[], snapshot: string) =>
    affected(trx, `UPDATE ${target.relation} l SET _snapshot_to = ${snapshotLiteral(snapshot)}
      WHERE ${current('l')} AND l._snapshot_from < ${snapshotLiteral(snapshot)}
        AND NOT EXISTS (SELECT 1 FROM ${quoteIdent(batch)} b WHERE ${keyMatch(keys, 'b', 'l')}
          AND ${rowOf(target.columns, 'b')} IS NOT DISTINCT FROM ${rowOf(target.columns, 'l')})`),

  /** Append-dedup: closes the older current version of every key that got a new one in the snapshot. */
  closeReplaced: (trx: TenantTransaction, target: RowsTarget, keys: string[], snapshot: string) =>
    affected(trx, `UPDATE ${target.relation} l SET _snapshot_to = ${snapshotLiteral(snapshot)}
      WHERE ${current('l')} AND l._snapshot_from < ${snapshotLiteral(snapshot)}
        AND EXISTS (SELECT 1 FROM ${target.relation} n WHERE ${current('n')} AND n._snapshot_from = ${snapshotLiteral(snapshot)} AND ${keyMatch(keys, 'n', 'l')})`),

  /** The visibility predicate of a snapshot. */
  visibleAt: (snapshot: string, alias = '') =>
    `${alias}_snapshot_from <= ${snapshotLiteral(snapshot)} AND (${alias}_snapshot_to IS NULL OR ${alias}_snapshot_to > ${snapshotLiteral(snapshot)})`,

  /** SELECT of the rows as of a snapshot, each property under its own name. */
  selectAt(target: RowsTarget, snapshot: string, textTypes = false): string {
    const columns = target.columns.map((column) => {
      // bigint and numeric leave as text so that no digit is lost on the way to JSON; a date as
      // text so that it stays a calendar day (not a midnight instant in the process's zone).
      const value = textTypes && ['bigint', 'numeric', 'date'].includes(column.type) ? `${quoteIdent(column.column)}::text` : quoteIdent(column.column);
      return `${value} AS ${quoteIdent(column.name)}`;
    });
    return `SELECT ${columns.length ? columns.join(', ') : '1 AS "?column?"'} FROM ${target.relation} WHERE ${rowsStore.visibleAt(snapshot)}`;
  },

  /**
   * The same columns as selectAt, and no row, without naming the table: a
   * dataset that has no snapshot yet may be in its first load, whose lock
   * would hold a reader until that load commits (sql/0004).
   */
  selectNone(target: RowsTarget): string {
    const columns = target.columns.map((column) => `NULL::${LAKE_TYPES[column.type]} AS ${quoteIdent(column.name)}`);
    return `SELECT ${columns.length ? columns.join(', ') : '1 AS "?column?"'} WHERE false`;
  },

  async readAt(trx: TenantTransaction, target: RowsTarget, snapshot: string, limit: number, offset: number): Promise<Record<string, unknown>[]> {
    // A page of rows never gains from parallel workers, and a table not yet analyzed (a fresh load) can make the
    // planner start them anyway: about 50 ms each time instead of 1.
    await sql`SET LOCAL max_parallel_workers_per_gather = 0`.execute(trx);
    const { rows } = await sql.raw<Record<string, unknown>>(`${rowsStore.selectAt(target, snapshot, true)} LIMIT ${Math.trunc(limit)} OFFSET ${Math.trunc(offset)}`).execute(trx);
    return rows;
  },

  async countAt(trx: TenantTransaction, target: RowsTarget, snapshot: string): Promise<number> {
    const { rows } = await sql.raw<{ n: number }>(`SELECT count(*)::int AS n FROM ${target.relation} WHERE ${rowsStore.visibleAt(snapshot)}`).execute(trx);
    return rows[0]!.n;
  },

  /** Retention: versions closed at or before the boundary are visible at no kept snapshot. */
  vacuum: (trx: TenantTransaction, target: RowsTarget, boundary: string) =>
    affected(trx, `DELETE FROM ${target.relation} WHERE _snapshot_to IS NOT NULL AND _snapshot_to <= ${snapshotLiteral(boundary)}`),
};
