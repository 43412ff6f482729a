// Applies plain-SQL migrations: core's (sql/) first, then each plugin's
// (its sql/ folder) in the order given (the manifest's dependency order).
// Each file runs in its own transaction and is recorded per plugin in the
// ledger platform_migrations (plugin, name, checksum). Two processes starting
// at once serialize on a table lock (not an advisory lock, which PGlite does
// not honour).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { grantTenantRole } from './grants.ts';
import { MigrationError } from './migration-error.ts';

export { MigrationError };

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** Where one owner's migrations live: `core` for sql/, else the plugin's name. */
export interface MigrationSource {
  plugin: string;
  dir: string;
}

export const MIGRATION_FILE = /^\d{4}_[a-z0-9_]+\.sql$/;

export const checksumOf = (sql: string): string => createHash('sha256').update(sql).digest('hex');

/** The numbered migrations of a folder, in order; none when the folder does not exist. */
export async function readMigrations(dir: string): Promise<Migration[]> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return [];
    throw err;
  }
  const names = entries.filter((name) => MIGRATION_FILE.test(name)).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name), 'utf8');
      return { name, sql, checksum: checksumOf(sql) };
    }),
  );
}

async function ensureLedger(pool: pg.Pool): Promise<void> {
  try {
    await pool.query(`CREATE TABLE IF NOT EXISTS platform_migrations (
      plugin text NOT NULL, name text NOT NULL, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (plugin, name))`);
  } catch (err) {
    // Two processes creating the ledger at the same instant: the loser sees a
    // duplicate type/table error, and the table exists, which is all we need.
    const code = (err as { code?: string }).code;
    if (code !== '23505' && code !== '42P07') throw err;
  }
}

function changedAfterApplied(plugin: string, migration: Migration): MigrationError {
  return new MigrationError(`migration ${plugin}/${migration.name} was changed after it was applied; add a new migration instead`);
}

async function applyOne(pool: pg.Pool, plugin: string, migration: Migration): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('LOCK TABLE platform_migrations IN EXCLUSIVE MODE');
    const { rows } = await client.query('SELECT checksum FROM platform_migrations WHERE plugin = $1 AND name = $2', [plugin, migration.name]);
    if (rows.length > 0) {
      await client.query('COMMIT');
      if (rows[0].checksum !== migration.checksum) throw changedAfterApplied(plugin, migration);
      return false;
    }
    try {
      await client.query(migration.sql);
    } catch (err) {
      throw new MigrationError(`migration ${plugin}/${migration.name} failed: ${(err as Error).message}`);
    }
    await client.query('INSERT INTO platform_migrations (plugin, name, checksum) VALUES ($1, $2, $3)', [plugin, migration.name, migration.checksum]);
    await client.query('COMMIT');
    return true;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** Applies every pending migration of the sources, in order; returns what it applied as `plugin/name`. */
export async function migrate(pool: pg.Pool, sources: MigrationSource[]): Promise<string[]> {
  await ensureLedger(pool);
  // One read of the ledger settles every migration already applied (the usual
  // boot); only the others take the lock, which applyOne checks again under.
  const { rows } = await pool.query<{ plugin: string; name: string; checksum: string }>('SELECT plugin, name, checksum FROM platform_migrations');
  const recorded = new Map(rows.map((row) => [`${row.plugin}/${row.name}`, row.checksum]));
  const applied: string[] = [];
  for (const source of sources) {
    for (const migration of await readMigrations(source.dir)) {
      const checksum = recorded.get(`${source.plugin}/${migration.name}`);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) throw changedAfterApplied(source.plugin, migration);
        continue;
      }
      if (await applyOne(pool, source.plugin, migration)) applied.push(`${source.plugin}/${migration.name}`);
    }
  }
  await grantTenantRole(pool, ['public']);
  return applied;
}

/** Migrations of the sources that the database has not applied, as `plugin/name`. */
export async function pendingMigrations(pool: pg.Pool, sources: MigrationSource[]): Promise<string[]> {
  const { rows } = await pool.query<{ plugin: string; name: string }>('SELECT plugin, name FROM platform_migrations')
    .catch(() => ({ rows: [] as { plugin: string; name: string }[] }));
  const done = new Set(rows.map((row) => `${row.plugin}/${row.name}`));
  const pending: string[] = [];
  for (const source of sources) {
    for (const migration of await readMigrations(source.dir)) {
      const key = `${source.plugin}/${migration.name}`;
      if (!done.has(key)) pending.push(key);
    }
  }
  return pending;
}

/**
 * Whether the ledger records every migration of these folders with the same
 * name and checksum, each as often as the folders hold it, whichever plugin
 * recorded it: the check needs no plugin's name, so a CLI command makes it
 * without importing the plugins (any change, and it migrates as the server does).
 */
export async function migrationsRecorded(pool: pg.Pool, dirs: string[]): Promise<boolean> {
  const { rows } = await pool.query<{ name: string; checksum: string }>('SELECT name, checksum FROM platform_migrations')
    .catch(() => ({ rows: [] as { name: string; checksum: string }[] }));
  const left = new Map<string, number>();
  for (const row of rows) left.set(`${row.name}:${row.checksum}`, (left.get(`${row.name}:${row.checksum}`) ?? 0) + 1);
  for (const dir of dirs) {
    for (const migration of await readMigrations(dir)) {
      const key = `${migration.name}:${migration.checksum}`;
      const count = left.get(key) ?? 0;
      if (count === 0) return false;
      left.set(key, count - 1);
    }
  }
  return true;
}
