// The templates migrated embedded test databases are copied from: a PGlite
// data directory with one set of migrations (core's and a manifest's plugins',
// and the job queues' schemas) applied once, not once per test (copying its
// files takes a fraction of a second; migrating PGlite takes seconds per
// plugin). It lives under os.tmpdir() and its name carries the hash of those
// migrations and the PGlite version, so another manifest, an edited migration
// or another engine makes another one.
// Test files run in parallel processes: each builds under a unique name and
// renames it into place; a process that loses the race removes its own.
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedDatabase } from '../db/embedded.ts';
import { openDatabase } from '../db/database.ts';
import { migrate, readMigrations, type MigrationSource } from '../db/migrate.ts';
import { installJobSchemas } from '../jobs/index.ts';
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

/** Migrates a fresh data directory under a unique name, then renames it to `name` unless another process got there first. */
async function build(name: string, sources: MigrationSource[]): Promise<void> {
  const building = await mkdtemp(`${name}.tmp-`);
  try {
    const embedded = await startEmbeddedDatabase(building);
    try {
      const database = openDatabase(embedded.url, 2);
      try {
        await migrate(database.pool, sources);
        await installJobSchemas(database.pool);
      } finally {
        await database.close();
      }
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
      if (!(await exists(name))) await build(name, sources);
      return name;
    })();
    templates.set(folders, template);
    template.catch(() => templates.delete(folders));
  }
  return template;
}

/** A fresh data directory for one test: empty, or with `migrations`, a copy of their template. */
export async function embeddedTestDataDir(migrations: MigrationSource[] | undefined): Promise<string> {
  const source = migrations ? await embeddedTemplate(migrations) : undefined;
  await mkdir(EMBEDDED_TEST_ROOT, { recursive: true });
  const dir = await mkdtemp(path.join(EMBEDDED_TEST_ROOT, 'db-'));
  if (source) await cp(source, dir, { recursive: true });
  return dir;
}
