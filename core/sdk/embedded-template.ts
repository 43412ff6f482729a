// The templates embedded test databases are copied from: a PGlite data
// directory with one set of migrations (core's and a manifest's plugins', and
// the job queues' schemas) applied once, not once per test (copying its files
// takes a fraction of a second; migrating PGlite takes seconds per plugin);
// and an initialized cluster with nothing in it, for tests that want an empty
// database but not PGlite's initdb (seconds of CPU) again. Each lives under
// os.tmpdir() and its name carries the PGlite version (and the hash of its
// migrations), so another manifest, an edited migration or another engine
// makes another one.
// Test files run in parallel processes: each builds under a unique name and
// renames it into place; a process that loses the race removes its own.
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedDatabase } from '../db/embedded.ts';
import { migrate, readMigrations, type MigrationSource } from '../db/migrate.ts';
import { ROOT_DIR } from '../paths.ts';

/** Where test data directories and their templates live. */
export const EMBEDDED_TEST_ROOT = path.join(os.tmpdir(), 'agent-platform-test');

/** The engine's packages: a data directory is read only by the PGlite that wrote it. */
const ENGINE_PACKAGES = ['@electric-sql/pglite', '@electric-sql/pglite-pgvector'];

async function engineVersions(): Promise<string> {
  const pkg = JSON.parse(await readFile(path.join(ROOT_DIR, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  return ENGINE_PACKAGES.map((name) => `${name}@${pkg.dependencies?.[name] ?? '?'}`).join(',');
}

const exists = (dir: string) => stat(dir).then(() => true, () => false);

/** A hash of every migration file of these sources. */
async function sourcesHash(sources: MigrationSource[]): Promise<string> {
  const hash = createHash('sha256');
  for (const source of sources) {
    for (const migration of await readMigrations(source.dir)) hash.update(`${source.plugin}/${migration.name}:${migration.checksum}\n`);
  }
  return hash.digest('hex');
}

/**
 * Migrates the database at url: these sources, then the job queues' schemas
 * (their modules imported here: a test that copies the initialized template
 * loads neither the pool nor the job queues).
 */
const migrateAll = (sources: MigrationSource[]) => async (url: string): Promise<void> => {
  const [{ openDatabase }, { installJobSchemas }] = await Promise.all([import('../db/database.ts'), import('../jobs/index.ts')]);
  const database = openDatabase(url, 2);
  try {
    await migrate(database.pool, sources);
    await installJobSchemas(database.pool);
  } finally {
    await database.close();
  }
};

/**
 * Starts PGlite on a data directory under a unique name (a copy of `base`, or
 * empty: then its start runs initdb), runs `prepare` on it, then renames it
 * to `name` unless another process got there first.
 */
async function build(name: string, prepare: (url: string) => Promise<void>, base?: string): Promise<void> {
  const building = await mkdtemp(`${name}.tmp-`);
  try {
    if (base) await cp(base, building, { recursive: true });
    const embedded = await startEmbeddedDatabase(building);
    try {
      await prepare(embedded.url);
    } finally {
      await embedded.stop();
    }
    await rename(building, name);
  } catch (err) {
    await rm(building, { recursive: true, force: true });
    // Another process renamed its template into place first: use that one.
    const code = (err as NodeJS.ErrnoException).code;
    if (!((code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'EPERM') && (await exists(name)))) throw err;
  }
}

const templates = new Map<string, Promise<string>>();

/** The template data directory of these migrations, built by the first process that needs it. */
export function embeddedTemplate(sources: MigrationSource[]): Promise<string> {
  // Keyed in this process by the sources' folders: their files are read and hashed once per process, not per test.
  const folders = sources.map((source) => `${source.plugin}=${source.dir}`).join('\n');
  let template = templates.get(folders);
  if (!template) {
    template = (async () => {
      const key = `${await sourcesHash(sources)}:${await engineVersions()}`;
      const name = path.join(EMBEDDED_TEST_ROOT, `template-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`);
      await mkdir(EMBEDDED_TEST_ROOT, { recursive: true });
      // Migrated on a copy of the initialized cluster: initdb runs once per engine, not once per template.
      if (!(await exists(name))) await build(name, migrateAll(sources), await initializedTemplate());
      return name;
    })();
    templates.set(folders, template);
    template.catch(() => templates.delete(folders));
  }
  return template;
}

let initialized: Promise<string> | undefined;

/** The template data directory of an initialized cluster with nothing in it (no migrations), built by the first process that needs it. */
export function initializedTemplate(): Promise<string> {
  initialized ??= (async () => {
    const key = `initialized:${await engineVersions()}`;
    const name = path.join(EMBEDDED_TEST_ROOT, `initialized-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`);
    await mkdir(EMBEDDED_TEST_ROOT, { recursive: true });
    if (!(await exists(name))) await build(name, async () => {});
    return name;
  })();
  initialized.catch(() => (initialized = undefined));
  return initialized;
}

/** A new data directory under EMBEDDED_TEST_ROOT: a copy of `template`, or empty. */
async function copyOf(template: string | undefined): Promise<string> {
  await mkdir(EMBEDDED_TEST_ROOT, { recursive: true });
  const dir = await mkdtemp(path.join(EMBEDDED_TEST_ROOT, 'db-'));
  if (template) await cp(template, dir, { recursive: true });
  return dir;
}

/** A fresh data directory for one test: empty, or with `migrations`, a copy of their template. */
export async function embeddedTestDataDir(migrations: MigrationSource[] | undefined): Promise<string> {
  return copyOf(migrations ? await embeddedTemplate(migrations) : undefined);
}

/** A fresh data directory for one test holding an initialized, empty cluster: what PGlite's first start on an empty directory leaves, without paying for it. */
export async function initializedTestDataDir(): Promise<string> {
  return copyOf(await initializedTemplate());
}
