// A sample of a dataset's rows for a dry run (read as the tenant role: the
// lake's row-level security applies). The dataset was checked readable and
// its relation built by the lakehouse api; the limit is a checked integer.
import { sql, type TenantTransaction } from 'agent-platform/sdk';

export const sampleStore = {
  rows: async (trx: TenantTransaction, selectSql: string, limit: number) =>
    (await sql<Record<string, unknown>>`SELECT * FROM (${sql.raw(selectSql)}) sample LIMIT ${Math.trunc(limit)}`.execute(trx)).rows,
};
