// SQL of the built-in catalogs (global tables: the platform's connection).
// Sync upserts by id and checksum, so reloading changes only what changed.
import { sql, type CoreServices } from 'agent-platform/sdk';
import './tables.ts';

export interface SyncCounts {
  created: number;
  updated: number;
  unchanged: number;
}

async function upsert(core: CoreServices, table: 'transform_sql_library' | 'transform_patterns', rows: Record<string, unknown>[]): Promise<SyncCounts> {
  const counts: SyncCounts = { created: 0, updated: 0, unchanged: 0 };
  await core.db.transaction().execute(async (trx) => {
    for (const row of rows) {
      const existing = await trx.selectFrom(table).select('checksum').where('id', '=', row.id as string).forUpdate().executeTakeFirst();
      if (existing?.checksum === row.checksum) {
        counts.unchanged += 1;
        continue;
      }
      await trx.insertInto(table).values(row as never)
        .onConflict((oc) => oc.column('id').doUpdateSet({ ...row, updated_at: sql`now()` } as never)).execute();
      counts[existing ? 'updated' : 'created'] += 1;
    }
  });
  return counts;
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
