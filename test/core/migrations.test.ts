import t from 'tap';
import path from 'node:path';
import pg from 'pg';
import { createTestDatabase, runCli, startTestPlatform, type Tap } from '../harness.ts';
import { migrate, readMigrations } from '../../core/db/migrate.ts';
import { LEGACY_MIGRATIONS } from '../../core/db/legacy-ledger.ts';
import { readManifest } from '../../core/manifest.ts';
import { migrationSourcesOf, resolvePlugins } from '../../core/plugin-loader.ts';
import { ROOT_DIR } from '../../core/paths.ts';
import { buildLegacyDatabase } from '../fixtures/legacy-sql/legacy-database.ts';

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

t.test('a database created with the flat sql/ numbering boots: its ledger is mapped per plugin, nothing is applied again, its data is served', async (t) => {
  const url = await createTestDatabase(t);
  const client = await connect(t, url);
  const legacyNames = await buildLegacyDatabase(client);
  t.ok(legacyNames.includes('0071_chat_session_owner.sql'));
  await client.query(`INSERT INTO tenants (id, display_name) VALUES ('legacy', 'Legacy')`);
  await client.query(`INSERT INTO workflow_definitions (tenant_id, name, description, steps)
    VALUES ('legacy', 'kept', 'made before the upgrade', '[{"id": "a", "type": "ACTION", "handler": "log", "output_key": "x"}]')`);
  const before = (await client.query('SELECT name, applied_at FROM platform_migrations ORDER BY name')).rows;

  // Two processes meet the old ledger at once: one renames it, the other waits and finds it done.
  const results = await Promise.all([migrateInChild(url), migrateInChild(url)]);
  for (const result of results) t.equal(result.code, 0, result.output);
  const after = await ledger(client);
  t.same(after.map((r) => r.key).sort(), (await expectedLedger()).sort(), 'every old row now names its plugin and file');
  // What the old ledger held keeps its time; only migrations written since the release are applied now.
  const mapped = new Set(Object.values(LEGACY_MIGRATIONS).flatMap((legacy) => legacy.becomes.map((target) => `${target.plugin}/${target.name}`)));
  const appliedBefore = new Set(before.map((r) => r.applied_at.getTime()));
  t.ok(after.filter((r) => mapped.has(r.key)).every((r) => appliedBefore.has(r.applied_at.getTime())), 'no migration was applied again');
  t.ok(after.filter((r) => !mapped.has(r.key)).every((r) => !appliedBefore.has(r.applied_at.getTime())), 'the newer ones are applied once, now');
  const split = after.filter((r) => ['chat/0002_session_owner.sql', 'events/0002_chain_depth.sql'].includes(r.key));
  t.same(split.map((r) => r.applied_at.getTime()), [0, 1].map(() => before.find((r) => r.name === '0071_chat_session_owner.sql').applied_at.getTime()),
    'the file that altered two plugins\' tables is now one file in each, applied when it was');
  const current = [...await readMigrations(path.join(ROOT_DIR, 'plugins', 'chat', 'sql')), ...await readMigrations(path.join(ROOT_DIR, 'plugins', 'events', 'sql'))];
  t.same(split.map((r) => r.checksum).sort(), current.filter((m) => m.name.startsWith('0002_')).map((m) => m.checksum).sort(), 'recorded with the new files\' checksums');

  const tp = await startTestPlatform(t, { databaseUrl: url });
  const listed = await tp.request({ url: '/api/admin/workflows', token: tp.adminToken, tenant: 'legacy' });
  t.equal(listed.status, 200);
  t.same(listed.body.items.map((w: { name: string; description: string }) => [w.name, w.description]), [['kept', 'made before the upgrade']]);
  const ready = await tp.request({ url: '/readyz', token: tp.adminToken });
  t.same(ready.body.checks.migrations, 'ok', 'nothing pending');
});

t.test('the fixed table of former names matches the released files and the files that replaced them', async (t) => {
  const legacyDir = path.join(ROOT_DIR, 'test', 'fixtures', 'legacy-sql');
  const released = await readMigrations(legacyDir);
  t.same(Object.keys(LEGACY_MIGRATIONS).sort(), released.map((m) => m.name), 'every released file, no other');
  for (const migration of released) {
    const legacy = LEGACY_MIGRATIONS[migration.name];
    t.equal(legacy.checksum, migration.checksum, `${migration.name}: the released checksum`);
    for (const target of legacy.becomes) {
      const dir = target.plugin === 'core' ? path.join(ROOT_DIR, 'sql') : path.join(ROOT_DIR, 'plugins', target.plugin, 'sql');
      const now = (await readMigrations(dir)).find((m) => m.name === target.name);
      t.equal(now?.checksum, target.checksum, `${migration.name} -> ${target.plugin}/${target.name}`);
    }
  }
});

/** migrate() of core and the default manifest's plugins, in this process, on a database of its own. */
async function migrateHere(t: Tap, url: string) {
  const pool = new pg.Pool({ connectionString: url });
  pool.on('error', () => {});
  t.teardown(() => pool.end());
  const plugins = await resolvePlugins(await readManifest(path.join(ROOT_DIR, 'manifests', 'default.yaml'), {}), ROOT_DIR);
  return migrate(pool, migrationSourcesOf(plugins));
}

t.test('an old ledger row whose file was edited, or that this version does not know, is refused, the ledger left as it was', async (t) => {
  const edited = await createTestDatabase(t);
  const client = await connect(t, edited);
  await buildLegacyDatabase(client);
  await client.query(`UPDATE platform_migrations SET checksum = 'changed' WHERE name = '0031_webhooks_replay.sql'`);
  await t.rejects(migrateHere(t, edited), {
    name: 'MigrationError',
    message: /^migration webhooks\/0002_replay\.sql \(formerly 0031_webhooks_replay\.sql\) was changed after it was applied/,
  });
  t.equal((await client.query(`SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'platform_migrations' AND column_name = 'plugin'`)).rows[0].n, 0, 'the ledger is left as it was');

  const unreleased = await createTestDatabase(t);
  const other = await connect(t, unreleased);
  await buildLegacyDatabase(other);
  await other.query(`INSERT INTO platform_migrations (name, checksum) VALUES ('0099_unreleased.sql', 'x')`);
  await t.rejects(migrateHere(t, unreleased), { name: 'MigrationError', message: /^the migration ledger names 0099_unreleased\.sql, which this version does not know/ });
});
