// Tenant SQL as PostgreSQL runs it, always through core.tenantSql (the
// statement budget, the tenant's concurrency cap, 57014 as SQL_TIMEOUT):
// describing a query's output (LIMIT 0 in a read-only tenant transaction),
// reading sample rows, entering a materialization's write and cancelling it
// by its backend pid. The SQL reaching here has passed the analysis and been
// rewritten onto datasets.
import { sql, type CoreServices, type EnterTenantSql, type TenantSqlOptions, type TenantTransaction } from 'agent-platform/sdk';

/** PostgreSQL type oids → lake column types (anything else lands as text). */
const LAKE_TYPE_OF_OID: Record<number, string> = {
  16: 'boolean', 20: 'bigint', 21: 'bigint', 23: 'bigint', 700: 'double', 701: 'double', 1700: 'numeric',
  1082: 'date', 1114: 'timestamptz', 1184: 'timestamptz', 2950: 'uuid', 114: 'jsonb', 3802: 'jsonb',
};

export const lakeTypeOfOid = (oid: number) => LAKE_TYPE_OF_OID[oid] ?? 'text';

export const tenantSqlStore = {
  /**
   * The output columns (name, lake type) of a query, without running it past
   * planning and LIMIT 0 (planning folds constant expressions: the budget
   * bounds it too).
   */
  describe: (core: CoreServices, tenantId: string, query: string, values: unknown[], budget: TenantSqlOptions) =>
    core.tenantSql.run(tenantId, { ...budget, readOnly: true }, async ({ trx, client }) => {
      // No JIT: a costly plan (a cross join over big inputs) would be compiled before LIMIT 0 returns
      // nothing, hundreds of milliseconds against the statement budget.
      await sql.raw('SET LOCAL jit = off').execute(trx);
      const result = await client.query({ text: `SELECT * FROM (${query}\n) AS q LIMIT 0`, values });
      return result.fields.map((field) => ({ name: field.name, type: lakeTypeOfOid(field.dataTypeID) }));
    }),

  /** Runs a query read-only (a preview: nothing can be stored; a request waits on it) and returns its first rows and their columns. */
  preview: (core: CoreServices, tenantId: string, query: string, values: unknown[], limit: number) =>
    core.tenantSql.run(tenantId, { mode: 'interactive', readOnly: true }, async ({ client }) => {
      const result = await client.query({ text: `SELECT * FROM (${query}\n) AS q LIMIT ${Math.trunc(limit)}`, values });
      return { columns: result.fields.map((field) => ({ name: field.name, type: lakeTypeOfOid(field.dataTypeID) })), rows: result.rows as Record<string, unknown>[] };
    }),

  /** Enters the write's session (its budget and the tenant's slot), tags it (application_name); its backend pid. */
  async prepareSession(trx: TenantTransaction, tag: string, enter: EnterTenantSql): Promise<number> {
    await enter(trx);
    const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid, set_config('application_name', ${tag}, true)`.execute(trx);
    return rows[0]!.pid;
  },

  /**
   * Cancels the statement running on that backend only while it still carries
   * the run's tag (a pooled connection's pid outlives the run). Through the
   * platform's own connection: the tenant role may not signal backends.
   */
  async cancel(core: CoreServices, pid: number, tag: string): Promise<boolean> {
    const { rows } = await sql<{ cancelled: boolean }>`
      SELECT pg_cancel_backend(pid) AS cancelled FROM pg_stat_activity WHERE pid = ${pid} AND application_name = ${tag}`.execute(core.db);
    return rows[0]?.cancelled ?? false;
  },

  async sample(trx: TenantTransaction, select: string, limit: number): Promise<Record<string, unknown>[]> {
    const { rows } = await sql.raw<Record<string, unknown>>(`${select} LIMIT ${Math.trunc(limit)}`).execute(trx);
    return rows;
  },
};
