// SQL of pattern registrations (a global table: patterns serve every tenant),
// on the system handle.
import { sql, type CoreServices } from 'agent-platform/sdk';
import './tables.ts';

type Db = CoreServices['db'];

export interface Registration {
  id: string;
  base_pattern: string;
  name: string;
  description: string;
  defaults: Record<string, unknown>;
  managed_by: 'register' | 'reconcile';
}

export const registrationsStore = {
  all: (db: Db) =>
    db.selectFrom('pipeline_pattern_registrations').select(['id', 'base_pattern', 'name', 'description', 'defaults', 'managed_by']).orderBy('id').execute(),

  upsert: (db: Db, row: Registration) =>
    db.insertInto('pipeline_pattern_registrations').values({ ...row, defaults: JSON.stringify(row.defaults) })
      .onConflict((c) => c.column('id').doUpdateSet({
        base_pattern: row.base_pattern, name: row.name, description: row.description, defaults: JSON.stringify(row.defaults),
        managed_by: row.managed_by, updated_at: sql`now()` as never,
      })).execute(),

  deleteManagedExcept: (db: Db, keep: string[]) => {
    let query = db.deleteFrom('pipeline_pattern_registrations').where('managed_by', '=', 'reconcile');
    if (keep.length) query = query.where('id', 'not in', keep);
    return query.returning('id').execute();
  },
};
