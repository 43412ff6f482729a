// Applies the plain-SQL migrations of sql/ in order, each in its own
// transaction, recording name and checksum. Two processes starting at once
// serialize on a table lock (not an advisory lock, which PGlite does not honour).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { grantTenantRole } from './grants.ts';

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export async function readMigrations(dir: string): Promise<Migration[]> {
  const names = (await readdir(dir)).filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name)).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

async function ensureLedger(pool: pg.Pool): Promise<void> {
  try {
    await pool.query(`CREATE TABLE IF NOT EXISTS platform_migrations (
      name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  } catch (err) {
    // Two processes creating the ledger at the same instant: the loser sees a
    // duplicate type/table error, and the table exists, which is all we need.
    const code = (err as { code?: string }).code;
    if (code !== '23505' && code !== '42P07') throw err;
  }
}

/** Applies every pending migration; returns the names it applied. */
export async function migrate(pool: pg.Pool, dir: string): Promise<string[]> {
  const migrations = await readMigrations(dir);
  await ensureLedger(pool);
  const applied: string[] = [];
  for (const migration of migrations) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('LOCK TABLE platform_migrations IN EXCLUSIVE MODE');
      const { rows } = await client.query('SELECT checksum FROM platform_migrations WHERE name = $1', [migration.name]);
      if (rows.length > 0) {
        await client.query('COMMIT');
        if (rows[0].checksum !== migration.checksum) {
          throw new MigrationError(`migration ${migration.name} was changed after it was applied; add a new migration instead`);
        }
        continue;
      }
      try {
        await client.query(migration.sql);
      } catch (err) {
        throw new MigrationError(`migration ${migration.name} failed: ${(err as Error).message}`);
      }
      await client.query('INSERT INTO platform_migrations (name, checksum) VALUES ($1, $2)', [migration.name, migration.checksum]);
      await client.query('COMMIT');
      applied.push(migration.name);
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }
  await grantTenantRole(pool, ['public']);
  return applied;
}

/** Names of migrations in dir that the database has not applied. */
export async function pendingMigrations(pool: pg.Pool, dir: string): Promise<string[]> {
  const migrations = await readMigrations(dir);
  const { rows } = await pool.query<{ name: string }>(
    `SELECT name FROM platform_migrations`,
  ).catch(() => ({ rows: [] as { name: string }[] }));
  const done = new Set(rows.map((row) => row.name));
  return migrations.filter((m) => !done.has(m.name)).map((m) => m.name);
}
