import t from 'tap';
import path from 'node:path';
import pg from 'pg';
import { createTestDatabase, runCli, type Tap } from '../harness.ts';
import { readMigrations } from '../../core/db/migrate.ts';
import { readManifest } from '../../core/manifest.ts';
import { migrationSourcesOf, resolvePlugins } from '../../core/plugin-loader.ts';
import { ROOT_DIR } from '../../core/paths.ts';

async function migrateInChild(databaseUrl: string): Promise<{ code: number; output: string }> {
  const result = await runCli(['migrate'], {
    env: { DATABASE_URL: databaseUrl, PLATFORM_MASTER_KEY: 'a'.repeat(64), PLATFORM_MANIFEST: 'manifests/default.yaml', LOG_LEVEL: undefined },
  });
  return { code: result.code, output: result.stdout + result.stderr };
}

/** Every migration of core and of the default manifest's plugins, as `plugin/name`, in the order applied. */
async function expectedLedger(): Promise<string[]> {
  const plugins = await resolvePlugins(await readManifest(path.join(ROOT_DIR, 'manifests', 'default.yaml'), {}), ROOT_DIR);
  const all: string[] = [];
  for (const source of migrationSourcesOf(plugins)) {
    for (const migration of await readMigrations(source.dir)) all.push(`${source.plugin}/${migration.name}`);
  }
  return all;
}

async function connect(t: Tap, url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {}); // the database is dropped WITH (FORCE) at teardown
  await client.connect();
  t.teardown(() => client.end());
  return client;
}

const ledger = async (client: pg.Client) =>
  (await client.query(`SELECT plugin || '/' || name AS key, checksum, applied_at FROM platform_migrations ORDER BY applied_at, plugin, name`)).rows;

t.test('two processes migrating one fresh database at once both succeed, each migration applied once, per plugin', async (t) => {
  const url = await createTestDatabase(t);
  const results = await Promise.all([migrateInChild(url), migrateInChild(url)]);
  for (const result of results) t.equal(result.code, 0, result.output);
  const client = await connect(t, url);
  const rows = await ledger(client);
  const expected = await expectedLedger();
  t.same(rows.map((r) => r.key).sort(), [...expected].sort(), 'one ledger row per migration of core and of each plugin');
  t.ok(expected.indexOf('core/0004_job_workers.sql') < expected.indexOf('workflows/0001_init.sql'), 'core comes first');
  t.ok(expected.indexOf('workflows/0001_init.sql') < expected.indexOf('events/0001_init.sql'), 'a plugin comes after those it depends on');
  t.ok(expected.includes('chat/0002_session_owner.sql') && expected.includes('webhooks/0002_replay.sql'), 'numbered within the plugin');
  const extensions = await client.query(`SELECT extname FROM pg_extension WHERE extname IN ('vector', 'pg_trgm') ORDER BY 1`);
  t.same(extensions.rows.map((r) => r.extname), ['pg_trgm', 'vector']);
});

t.test('a migration edited after it was applied stops the boot with a clear message naming plugin and file', async (t) => {
  const url = await createTestDatabase(t, { migrated: true });
  const client = await connect(t, url);
  await client.query(`UPDATE platform_migrations SET checksum = 'changed' WHERE plugin = 'events' AND name = '0001_init.sql'`);
  const again = await migrateInChild(url);
  t.equal(again.code, 1);
  t.match(again.output, /^error: migration events\/0001_init\.sql was changed after it was applied/m);
  t.equal(again.output.trim().split('\n').length, 1, 'one line');
});
