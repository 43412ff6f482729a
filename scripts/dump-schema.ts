// Writes test/schema.sql: the schema the migrations of core and of every
// plugin of manifests/default.yaml produce, so that schema
// changes are visible in review. With --check, fails if the file is stale.
// Runs against the throwaway cluster of scripts/with-test-db.sh.
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../core/db/migrate.ts';
import { readManifest } from '../core/manifest.ts';
import { migrationSourcesOf, resolvePlugins } from '../core/plugin-loader.ts';
import { ROOT_DIR } from '../core/paths.ts';

const target = path.join(ROOT_DIR, 'test', 'schema.sql');
const cluster = process.env.TEST_DATABASE_URL;
if (!cluster) throw new Error('TEST_DATABASE_URL is not set: run through scripts/with-test-db.sh');

const name = `schema_dump_${process.pid}`;
const admin = new pg.Client({ connectionString: cluster });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(cluster);
url.pathname = `/${name}`;
try {
  const pool = new pg.Pool({ connectionString: url.toString() });
  // Every plugin of the default deployment, in its order (defaults for its ${ENV} options).
  const plugins = await resolvePlugins(await readManifest(path.join(ROOT_DIR, 'manifests', 'default.yaml'), {}), ROOT_DIR);
  await migrate(pool, migrationSourcesOf(plugins));
  await pool.end();
  const pgDump = process.env.PG_BIN ? path.join(process.env.PG_BIN, 'pg_dump') : 'pg_dump';
  const raw = execFileSync(pgDump, ['--schema-only', '--no-owner', '--no-privileges', '--no-comments', url.toString()], { encoding: 'utf8' });
  const dump = raw
    .split('\n')
    .filter((line) => !line.startsWith('--') && !/^SET |^SELECT pg_catalog\.set_config/.test(line) && !line.startsWith('\\'))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim() + '\n';
  if (process.argv.includes('--check')) {
    const committed = await readFile(target, 'utf8').catch(() => '');
    if (committed !== dump) {
      console.error('test/schema.sql is out of date with the migrations: run `npm run schema:dump` and commit the result');
      process.exitCode = 1;
    } else {
      console.log('test/schema.sql is current');
    }
  } else {
    await writeFile(target, dump);
    console.log(`wrote ${path.relative(ROOT_DIR, target)}`);
  }
} finally {
  await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
  await admin.end();
}
