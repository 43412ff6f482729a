// The template every migrated test database is copied from: core's and the
// repo plugins' migrations (and the job queues' schemas) applied once per test
// run, not once per test
// (CREATE DATABASE ... TEMPLATE copies it in milliseconds). Its name carries a
// hash of every migration file, so an edited or added migration makes a new
// one. A partner plugin's migrations are not in it: the boot applies them.
// tap runs test files in parallel processes: each builds under a unique name
// and renames it into place; a process that loses the race drops its own.
import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { migrate, readMigrations } from '../db/migrate.ts';
import { installJobSchemas } from '../jobs/index.ts';
import { readManifest } from '../manifest.ts';
import { migrationSourcesOf, resolvePlugins } from '../plugin-loader.ts';
import { CORE_MIGRATIONS, ROOT_DIR } from '../paths.ts';

const PLUGINS_DIR = path.join(ROOT_DIR, 'plugins');

/** A hash of every migration file of core and of every plugins/<name>/sql/. */
export async function migrationsHash(): Promise<string> {
  const hash = createHash('sha256');
  const pluginDirs = (await readdir(PLUGINS_DIR, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  for (const source of [CORE_MIGRATIONS, ...pluginDirs.map((name) => ({ plugin: name, dir: path.join(PLUGINS_DIR, name, 'sql') }))]) {
    for (const migration of await readMigrations(source.dir)) hash.update(`${source.plugin}/${migration.name}:${migration.checksum}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

function databaseUrl(clusterUrl: string, name: string): string {
  const parsed = new URL(clusterUrl);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

const codeOf = (err: unknown) => (err as { code?: string }).code;

/** Renames a database once the backends of its just-closed connections have exited (55006 until then). */
async function renameWhenFree(admin: pg.Client, from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`ALTER DATABASE ${from} RENAME TO ${to}`);
      return;
    } catch (err) {
      if (codeOf(err) !== '55006' || attempt >= 50) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function build(clusterUrl: string, admin: pg.Client, name: string): Promise<void> {
  const building = `tpl_tmp_${randomBytes(6).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${building}`);
  try {
    // Every repo plugin, in the default deployment's dependency order.
    const plugins = await resolvePlugins(await readManifest(path.join(ROOT_DIR, 'manifests', 'default.yaml'), {}), ROOT_DIR);
    const pool = new pg.Pool({ connectionString: databaseUrl(clusterUrl, building), max: 2 });
    // A backend of an ended client may still be exiting when a loser drops its copy (FORCE).
    pool.on('error', () => {});
    try {
      await migrate(pool, migrationSourcesOf(plugins));
      await installJobSchemas(pool);
    } finally {
      await pool.end();
    }
    await renameWhenFree(admin, building, name);
  } catch (err) {
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    // Another process renamed its template into place first: use that one.
    // The loser sees duplicate_database, or, when both renames meet in the
    // catalog at once, the unique violation of pg_database's name index.
    if (codeOf(err) !== '42P04' && codeOf(err) !== '23505') throw err;
  }
}

let template: Promise<string> | undefined;

/** The migrated template's name on this cluster, built by the first process that needs it. */
export function migratedTemplate(clusterUrl: string): Promise<string> {
  template ??= (async () => {
    const name = `tpl_${await migrationsHash()}`;
    const admin = new pg.Client({ connectionString: clusterUrl });
    await admin.connect();
    try {
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rows.length === 0) await build(clusterUrl, admin, name);
    } finally {
      await admin.end();
    }
    return name;
  })();
  template.catch(() => (template = undefined));
  return template;
}
