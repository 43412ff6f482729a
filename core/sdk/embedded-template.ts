// The template every migrated embedded test database is copied from: a PGlite
// data directory with core's and the repo plugins' migrations (and the job
// queues' schemas) applied once, not once per test (copying its files takes a
// fraction of a second; migrating PGlite takes seconds). It lives under
// os.tmpdir() and its name carries the migrations' hash and the PGlite
// version, so an edited migration or another engine makes a new one. A
// partner plugin's migrations are not in it: the boot applies them.
// Test files run in parallel processes: each builds under a unique name and
// renames it into place; a process that loses the race removes its own.
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedDatabase } from '../db/embedded.ts';
import { openDatabase } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { installJobSchemas } from '../jobs/index.ts';
import { readManifest } from '../manifest.ts';
import { migrationSourcesOf, resolvePlugins } from '../plugin-loader.ts';
import { ROOT_DIR } from '../paths.ts';
import { migrationsHash } from './test-template.ts';

/** Where test data directories and their templates live. */
export const EMBEDDED_TEST_ROOT = path.join(os.tmpdir(), 'agent-platform-test');

/** The engine's packages: a data directory is read only by the PGlite that wrote it. */
const ENGINE_PACKAGES = ['@electric-sql/pglite', '@electric-sql/pglite-pgvector'];

async function engineVersions(): Promise<string> {
  const pkg = JSON.parse(await readFile(path.join(ROOT_DIR, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  return ENGINE_PACKAGES.map((name) => `${name}@${pkg.dependencies?.[name] ?? '?'}`).join(',');
}

const exists = (dir: string) => stat(dir).then(() => true, () => false);

/** Migrates a fresh data directory under a unique name, then renames it to `name` unless another process got there first. */
async function build(name: string): Promise<void> {
  const building = await mkdtemp(`${name}.tmp-`);
  try {
    const embedded = await startEmbeddedDatabase(building);
    try {
      // Every repo plugin, in the default deployment's dependency order.
      const plugins = await resolvePlugins(await readManifest(path.join(ROOT_DIR, 'manifests', 'default.yaml'), {}), ROOT_DIR);
      const database = openDatabase(embedded.url, 2);
      try {
        await migrate(database.pool, migrationSourcesOf(plugins));
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

let template: Promise<string> | undefined;

/** The migrated template data directory, built by the first process that needs it. */
export function embeddedTemplate(): Promise<string> {
  template ??= (async () => {
    const key = `${await migrationsHash()}:${await engineVersions()}`;
    const digest = createHash('sha256').update(key).digest('hex').slice(0, 16);
    const name = path.join(EMBEDDED_TEST_ROOT, `template-${digest}`);
    await mkdir(EMBEDDED_TEST_ROOT, { recursive: true });
    if (!(await exists(name))) await build(name);
    return name;
  })();
  template.catch(() => (template = undefined));
  return template;
}

/** A fresh data directory for one test: empty, or with `migrated`, a copy of the template. */
export async function embeddedTestDataDir(migrated: boolean): Promise<string> {
  const source = migrated ? await embeddedTemplate() : undefined;
  await mkdir(EMBEDDED_TEST_ROOT, { recursive: true });
  const dir = await mkdtemp(path.join(EMBEDDED_TEST_ROOT, 'db-'));
  if (source) await cp(source, dir, { recursive: true });
  return dir;
}
