// A boot on a database where nothing changed runs none of the boot's DDL: the
// tenant role's grants are applied only when their fingerprint (statements,
// catalog objects and their privileges) differs from the stored one, and the
// long tasks' queues are created or updated only when their row differs from
// the code's declaration. A privilege changed by hand, a table added by a
// migration and a queue policy that drifted are all set right at the next boot.
import t from 'tap';
import pg from 'pg';
import { startTestPlatform, type TestPlatform } from '../harness.ts';

interface Snapshot {
  state: { name: string; fingerprint: string; xmin: string }[];
  queues: { name: string; updated: string }[];
}

async function snapshot(db: pg.Client): Promise<Snapshot> {
  const state = (await db.query('SELECT name, fingerprint, xmin::text FROM platform_boot_state ORDER BY name')).rows;
  const queues = (await db.query(`SELECT name, xmin::text || ' ' || updated_on::text AS updated FROM pgboss.queue ORDER BY name`)).rows;
  return { state, queues };
}

const privilege = async (db: pg.Client, table: string, what: string): Promise<boolean> =>
  (await db.query<{ ok: boolean }>('SELECT has_table_privilege($1, $2, $3) AS ok', ['platform_tenant', table, what])).rows[0]!.ok;

t.test('a second boot runs no grants and no queue DDL; drift is repaired at the next boot', async (t) => {
  const first = await startTestPlatform(t);
  const secrets = { PLATFORM_MASTER_KEY: first.env.PLATFORM_MASTER_KEY, ADMIN_TOKEN: first.env.ADMIN_TOKEN, SERVICE_JWT_SECRET: first.env.SERVICE_JWT_SECRET };
  const reboot = async (): Promise<TestPlatform> => {
    const tp = await startTestPlatform(t, { databaseUrl: first.databaseUrl, env: secrets });
    await tp.stop();
    return tp;
  };
  await first.stop();
  const db = new pg.Client({ connectionString: first.databaseUrl });
  await db.connect();
  t.teardown(() => db.end());

  const booted = await snapshot(db);
  t.same(booted.state.map((row) => row.name), ['tenant-role:public', 'tenant-role:queues'], 'both grant sets are fingerprinted');
  t.ok(booted.queues.some((queue) => queue.name === 'ingestion.reconcile'), 'the declared queues exist');

  await reboot();
  t.same(await snapshot(db), booted, 'the second boot rewrote no fingerprint (no grants ran) and no queue row');

  // Drift by hand: a right taken from the tenant role, one given to it, a new table, a queue's policy.
  await db.query('REVOKE INSERT ON pgboss.job_common FROM platform_tenant');
  await db.query('GRANT SELECT ON users TO platform_tenant');
  await db.query('CREATE TABLE boot_ddl_probe (id int)');
  const declared = (await db.query(`SELECT retry_limit, dead_letter FROM pgboss.queue WHERE name = 'ingestion.reconcile'`)).rows[0];
  t.ok(declared.dead_letter, 'the queue has a dead letter');
  await db.query(`UPDATE pgboss.queue SET retry_limit = 99, dead_letter = NULL WHERE name = 'ingestion.reconcile'`);
  t.notOk(await privilege(db, 'pgboss.job_common', 'INSERT'));
  t.ok(await privilege(db, 'users', 'SELECT'));

  await reboot();
  t.ok(await privilege(db, 'pgboss.job_common', 'INSERT'), 'a revoked grant is restored');
  t.notOk(await privilege(db, 'users', 'SELECT'), 'a widened grant is revoked again');
  t.ok(await privilege(db, 'boot_ddl_probe', 'SELECT'), 'a new table gets the tenant role its rights');
  const queue = (await db.query(`SELECT retry_limit, dead_letter FROM pgboss.queue WHERE name = 'ingestion.reconcile'`)).rows[0];
  t.same(queue, declared, 'the queue has its declared retry limit and dead letter again');
  const repaired = await snapshot(db);
  t.not(repaired.state[0]!.fingerprint, booted.state[0]!.fingerprint, 'the public grants were applied again');
  t.not(repaired.state[1]!.xmin, booted.state[1]!.xmin, 'the queue grants were applied again');

  await reboot();
  t.same(await snapshot(db), repaired, 'after the repair, a boot again changes nothing');
});
