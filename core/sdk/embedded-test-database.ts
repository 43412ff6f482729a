// A test's embedded database (the harness's default when TEST_DATABASE_URL is
// unset): a data directory of its own under os.tmpdir(), named to the harness
// by its file: URL, where PostgreSQL would have a connection URL. The platform
// opens PGlite on it (PLATFORM_DATA_DIR, no DATABASE_URL); the directory is
// removed at teardown, after every platform still open on it has stopped
// (PGlite, its socket and its thread with them).
import { rm } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { MigrationSource } from '../db/migrate.ts';
import { embeddedTestDataDir } from './embedded-template.ts';

/** What the harness needs of a test (node-tap's `t`). */
interface Teardown {
  teardown(fn: () => unknown): void;
}

/** The stop of each platform open on a test data directory. */
const openOn = new Map<string, Set<() => Promise<void>>>();

/** The data directory a test database URL names, when it is an embedded one. */
export function embeddedDataDirOf(databaseUrl: string): string | undefined {
  return databaseUrl.startsWith('file:') ? fileURLToPath(databaseUrl) : undefined;
}

/** The settings that point the platform (or a CLI command) at a test database: '' unsets DATABASE_URL. */
export function databaseEnvOf(databaseUrl: string): Record<string, string> {
  const dataDir = embeddedDataDirOf(databaseUrl);
  return dataDir ? { DATABASE_URL: '', PLATFORM_DATA_DIR: dataDir } : { DATABASE_URL: databaseUrl };
}

/** Creates a data directory (with `migrations`: a copy of their template; without, empty), removed at teardown; returns its file: URL. */
export async function createEmbeddedTestDatabase(t: Teardown, migrations: MigrationSource[] | undefined): Promise<string> {
  const dir = await embeddedTestDataDir(migrations);
  t.teardown(async () => {
    await Promise.all([...(openOn.get(dir) ?? [])].map((stop) => stop()));
    openOn.delete(dir);
    await rm(dir, { recursive: true, force: true });
  });
  return pathToFileURL(dir).href;
}

/** Records a platform open on an embedded test database until it stops; the returned function forgets it. */
export function trackOpen(databaseUrl: string, stop: () => Promise<void>): () => void {
  const dir = embeddedDataDirOf(databaseUrl);
  if (!dir) return () => {};
  let stops = openOn.get(dir);
  if (!stops) openOn.set(dir, (stops = new Set()));
  stops.add(stop);
  return () => stops.delete(stop);
}
