// SQL of the built-in catalogs (global tables: the platform's connection).
// Sync upserts by id and checksum, so reloading changes only what changed.
import { sql, type CoreServices } from 'agent-platform/sdk';
import './tables.ts';

export interface SyncCounts {
  created: number;
  updated: number;
  unchanged: number;
}

/** Writes the rows whose checksum differs from the stored one: one read and at most one write, whatever the catalog's size. */
async function upsert(core: CoreServices, table: 'transform_sql_library' | 'transform_patterns', rows: Record<string, unknown>[]): Promise<SyncCounts> {
  if (rows.length === 0) return { created: 0, updated: 0, unchanged: 0 };
  return core.db.transaction().execute(async (trx) => {
    const stored = await trx.selectFrom(table).select(['id', 'checksum']).where('id', 'in', rows.map((row) => row.id as string)).forUpdate().execute();
    const checksums = new Map(stored.map((row) => [row.id, row.checksum]));
    const changed = rows.filter((row) => checksums.get(row.id as string) !== row.checksum);
    if (changed.length > 0) {
      // Every row of a catalog has the same columns.
      const columns = Object.keys(changed[0]).filter((column) => column !== 'id');
      const update = Object.fromEntries([...columns.map((column) => [column, sql.ref(`excluded.${column}`)]), ['updated_at', sql`now()`]]);
      await trx.insertInto(table).values(changed as never).onConflict((oc) => oc.column('id').doUpdateSet(update as never)).execute();
    }
    const updated = changed.filter((row) => checksums.has(row.id as string)).length;
    return { created: changed.length - updated, updated, unchanged: rows.length - changed.length };
  });
}

export const catalogStore = {
  syncLibrary: (core: CoreServices, rows: { id: string; name: string; description: string; category: string; sql_types: string[]; sql: string; parameters: string; checksum: string }[]) =>
    upsert(core, 'transform_sql_library', rows),

  syncPatterns: (core: CoreServices, rows: { id: string; name: string; description: string; category: string; parameters_schema: string; checksum: string }[]) =>
    upsert(core, 'transform_patterns', rows),

  library: (core: CoreServices, filter: { category?: string; sqlType?: string }) => {
    let query = core.db.selectFrom('transform_sql_library').select(['id', 'name', 'description', 'category', 'sql_types', 'sql', 'parameters', 'updated_at']);
    if (filter.category) query = query.where('category', '=', filter.category);
    if (filter.sqlType) query = query.where(sql<boolean>`${filter.sqlType} = ANY (sql_types)`);
    return query.orderBy('category').orderBy('id').execute();
  },

  libraryEntry: (core: CoreServices, id: string) =>
    core.db.selectFrom('transform_sql_library').select(['id', 'name', 'description', 'category', 'sql_types', 'sql', 'parameters', 'updated_at']).where('id', '=', id).executeTakeFirst(),

  libraryCategories: (core: CoreServices) =>
    core.db.selectFrom('transform_sql_library').select(['category', sql<number>`count(*)::int`.as('count')]).groupBy('category').orderBy('category').execute(),

  patterns: (core: CoreServices, category?: string) => {
    let query = core.db.selectFrom('transform_patterns').select(['id', 'name', 'description', 'category', 'parameters_schema', 'updated_at']);
    if (category) query = query.where('category', '=', category);
    return query.orderBy('category').orderBy('id').execute();
  },

  pattern: (core: CoreServices, id: string) =>
    core.db.selectFrom('transform_patterns').select(['id', 'name', 'description', 'category', 'parameters_schema', 'updated_at']).where('id', '=', id).executeTakeFirst(),

  patternCategories: (core: CoreServices) =>
    core.db.selectFrom('transform_patterns').select(['category', sql<number>`count(*)::int`.as('count')]).groupBy('category').orderBy('category').execute(),
};
