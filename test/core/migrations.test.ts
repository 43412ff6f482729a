import t from 'tap';
import { spawn } from 'node:child_process';
import pg from 'pg';
import { createTestDatabase } from '../harness.ts';
import { readMigrations } from '../../core/db/migrate.ts';
import { ROOT_DIR, SQL_DIR } from '../../core/paths.ts';

function migrateInChild(databaseUrl: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['core/cli/bin.ts', 'migrate'], {
      cwd: ROOT_DIR,
      env: { ...process.env, DATABASE_URL: databaseUrl, PLATFORM_MASTER_KEY: 'a'.repeat(64) },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code, output }));
  });
}

t.test('two processes migrating one fresh database at once both succeed, each migration applied once', async (t) => {
  const url = await createTestDatabase(t);
  const results = await Promise.all([migrateInChild(url), migrateInChild(url)]);
  for (const result of results) t.equal(result.code, 0, result.output);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  t.teardown(() => client.end());
  const { rows } = await client.query('SELECT name FROM platform_migrations ORDER BY name');
  t.same(rows.map((r) => r.name), (await readMigrations(SQL_DIR)).map((m) => m.name));
  const extensions = await client.query(`SELECT extname FROM pg_extension WHERE extname IN ('vector', 'pg_trgm') ORDER BY 1`);
  t.same(extensions.rows.map((r) => r.extname), ['pg_trgm', 'vector']);
});

t.test('a migration edited after it was applied stops the boot with a clear message', async (t) => {
  const url = await createTestDatabase(t);
  t.equal((await migrateInChild(url)).code, 0);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`UPDATE platform_migrations SET checksum = 'changed' WHERE name = '0001_core.sql'`);
  await client.end();
  const again = await migrateInChild(url);
  t.equal(again.code, 1);
  t.match(again.output, /^error: migration 0001_core\.sql was changed after it was applied/m);
});
