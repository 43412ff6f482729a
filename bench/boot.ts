// Boot benchmark: what a boot costs the database when nothing changed. Boots
// the platform (manifests/default.yaml) on a fresh copy of the migrated test
// template, then BENCH_BOOTS (5) more times on that same database, and reports
// each reboot's wall time and, from pg_stat_statements, the statements per
// boot and the boot-time DDL among them (grants, pg-boss queue creation and
// updates), for the first boot and the reboots. Run with `npm run bench:boot`
// (a throwaway PostgreSQL with pg_stat_statements preloaded).
import pg from 'pg';
import { createTestDatabase, startTestPlatform } from '../test/harness.ts';

const cleanups: (() => unknown)[] = [];
const t = { teardown: (fn: () => unknown) => void cleanups.push(fn) };
const boots = Number(process.env.BENCH_BOOTS ?? 5);
const DDL = String.raw`^\s*(grant|revoke|do \$\$|select pgboss\.create_queue|with options as)`;

const url = await createTestDatabase(t, { migrated: true });
const database = new URL(url).pathname.slice(1);
// The extension in the cluster's maintenance database: in the booted one, its objects would be new objects of the public schema.
const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
await admin.connect();
await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');

async function report(label: string, runs: number): Promise<void> {
  const where = `s.dbid = (SELECT oid FROM pg_database WHERE datname = $1)`;
  const all = (await admin.query(`SELECT coalesce(sum(calls), 0)::int AS calls, coalesce(sum(total_exec_time), 0)::float AS ms FROM pg_stat_statements s WHERE ${where}`, [database])).rows[0];
  const ddl = (await admin.query(`
    SELECT calls::int, total_exec_time::float AS ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 70) AS query
    FROM pg_stat_statements s WHERE ${where} AND query ~* $2 ORDER BY total_exec_time DESC`, [database, DDL])).rows;
  const ddlCalls = ddl.reduce((sum, row) => sum + row.calls, 0);
  const ddlMs = ddl.reduce((sum, row) => sum + row.ms, 0);
  console.log(`${label}: ${(all.calls / runs).toFixed(0)} statements, ${(all.ms / runs).toFixed(1)} ms of statement time per boot; DDL ${(ddlCalls / runs).toFixed(1)} statements, ${(ddlMs / runs).toFixed(1)} ms`);
  for (const row of ddl.slice(0, 8)) console.log(`  ${(row.calls / runs).toFixed(1)} × ${(row.ms / runs).toFixed(2)} ms  ${row.query}`);
  await admin.query('SELECT pg_stat_statements_reset()');
}

try {
  await admin.query('SELECT pg_stat_statements_reset()');
  const first = await startTestPlatform(t, { databaseUrl: url });
  const env = { PLATFORM_MASTER_KEY: first.env.PLATFORM_MASTER_KEY, ADMIN_TOKEN: first.env.ADMIN_TOKEN, SERVICE_JWT_SECRET: first.env.SERVICE_JWT_SECRET };
  await first.stop();
  await report('first boot on a copy of the template', 1);
  const times: number[] = [];
  for (let i = 0; i < boots; i++) {
    const start = performance.now();
    const tp = await startTestPlatform(t, { databaseUrl: url, env });
    times.push(performance.now() - start);
    await tp.stop();
  }
  await report(`reboot on the same database (${times.map((ms) => ms.toFixed(0)).join(', ')} ms each)`, boots);
} finally {
  await admin.end();
  for (const cleanup of cleanups.reverse()) await cleanup();
}
