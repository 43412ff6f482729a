// DDL of lake tables, on the platform's own connection (the tenant role
// creates nothing). Each lake table: _tenant_id (defaulting to the
// transaction's tenant) under forced row-level security, _snapshot_from and
// _snapshot_to (system versioning: a row version is visible at snapshot S when
// _snapshot_from <= S < coalesce(_snapshot_to, ∞)), then one column per
// property. Only its owner tenant may add rows; shared datasets get a second
// policy letting every tenant read.
// Only fixed type names (datasets/types.ts) and quoted identifiers reach these strings.
import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { isValidTenantAlias, type Database } from 'agent-platform/sdk';
import { qualified, quoteIdent } from '../datasets/naming.ts';
import { LAKE_TYPES, type LakeColumn } from '../datasets/types.ts';
import './tables.ts';

type SystemTransaction = Transaction<Database>;

export interface LakeTable {
  namespace: string;
  physicalTable: string;
  shared: boolean;
  /** The tenant whose dataset it is: the only one that may write rows into it. */
  owner: string;
}

const run = (trx: SystemTransaction, statement: string) => sql.raw(statement).execute(trx);

function keyIndexName(table: LakeTable): string {
  return `lake_key_${createHash('sha256').update(`${table.namespace}.${table.physicalTable}`).digest('hex').slice(0, 24)}`;
}

export const ddlStore = {
  /**
   * A transaction on the system connection that acts for a tenant: the
   * registry's row-level security holds for an owner that is not a superuser.
   * DDL is serialized by a lock on the registry (two first syncs of one stream).
   */
  inTenantDdl: <T>(db: Kysely<Database>, tenantId: string, work: (trx: SystemTransaction) => Promise<T>) =>
    db.transaction().execute(async (trx) => {
      if (!isValidTenantAlias(tenantId)) throw new Error('invalid tenant alias');
      await run(trx, `SET LOCAL app.tenant_id = '${tenantId}'`);
      await run(trx, 'LOCK TABLE lake_datasets IN SHARE ROW EXCLUSIVE MODE');
      return work(trx);
    }),

  find: (trx: SystemTransaction, datasetId: string) =>
    trx.selectFrom('lake_datasets').select(['id', 'tenant_id', 'namespace', 'physical_table', 'shared', 'columns', 'primary_key', 'producer_name'])
      .where('dataset_id', '=', datasetId).executeTakeFirst(),

  async createTable(trx: SystemTransaction, table: LakeTable, columns: LakeColumn[]): Promise<void> {
    const name = qualified(table.namespace, table.physicalTable);
    const data = columns.map((column) => `${quoteIdent(column.column)} ${LAKE_TYPES[column.type]}`);
    await run(trx, `CREATE TABLE ${name} (
      _tenant_id text NOT NULL DEFAULT current_setting('app.tenant_id'),
      _snapshot_from bigint NOT NULL,
      _snapshot_to bigint${data.length ? `,\n      ${data.join(',\n      ')}` : ''}
    )`);
    await run(trx, `ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY`);
    await run(trx, `ALTER TABLE ${name} FORCE ROW LEVEL SECURITY`);
    // Reads see the acting tenant's rows; writes also need it to be the owner
    // (another tenant naming this table can neither read nor add a row).
    if (!isValidTenantAlias(table.owner)) throw new Error('invalid owner tenant');
    // The setting as an InitPlan `(SELECT ...)`: read once per statement, not once per row (sql/0003).
    await run(trx, `CREATE POLICY tenant_isolation ON ${name} USING (_tenant_id = (SELECT current_setting('app.tenant_id', true)))
      WITH CHECK (_tenant_id = (SELECT current_setting('app.tenant_id', true)) AND _tenant_id = '${table.owner}')`);
    if (table.shared) await run(trx, `CREATE POLICY shared_read ON ${name} FOR SELECT USING (true)`);
    await run(trx, `GRANT SELECT, INSERT, UPDATE, DELETE ON ${name} TO platform_tenant`);
  },

  async addColumns(trx: SystemTransaction, table: LakeTable, columns: LakeColumn[]): Promise<void> {
    if (columns.length === 0) return;
    const additions = columns.map((column) => `ADD COLUMN ${quoteIdent(column.column)} ${LAKE_TYPES[column.type]}`);
    await run(trx, `ALTER TABLE ${qualified(table.namespace, table.physicalTable)} ${additions.join(', ')}`);
  },

  /** A property whose type changed keeps its values, as text. */
  async widenToText(trx: SystemTransaction, table: LakeTable, column: string): Promise<void> {
    await run(trx, `ALTER TABLE ${qualified(table.namespace, table.physicalTable)} ALTER COLUMN ${quoteIdent(column)} TYPE text USING ${quoteIdent(column)}::text`);
  },

  /** The index of current versions by key (what deduplication and overwrites look rows up by). */
  async replaceKeyIndex(trx: SystemTransaction, table: LakeTable, keyColumns: string[]): Promise<void> {
    const index = keyIndexName(table);
    await run(trx, `DROP INDEX IF EXISTS ${qualified(table.namespace, index)}`);
    if (keyColumns.length === 0) return;
    await run(trx, `CREATE INDEX ${quoteIdent(index)} ON ${qualified(table.namespace, table.physicalTable)} (${keyColumns.map(quoteIdent).join(', ')}) WHERE _snapshot_to IS NULL`);
  },

  insert: async (trx: SystemTransaction, values: {
    tenant_id: string; dataset_id: string; namespace: string; layer: string; table_name: string; physical_table: string; shared: boolean;
    producer_kind: string; producer_id: string; producer_name: string | null; columns: LakeColumn[]; primary_key: string[];
  }) => (await trx.insertInto('lake_datasets').values({ ...values, columns: JSON.stringify(values.columns) })
    .returning('id').executeTakeFirstOrThrow()).id,

  update: (trx: SystemTransaction, id: number, values: { columns: LakeColumn[]; primary_key: string[]; producer_name: string | null }) =>
    trx.updateTable('lake_datasets')
      .set({ columns: JSON.stringify(values.columns), primary_key: values.primary_key, producer_name: values.producer_name, updated_at: sql`now()` as never })
      .where('id', '=', id).execute(),
};
