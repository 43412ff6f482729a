// The tenant role (what every tenant transaction runs as) reaches tenant rows
// and the few functions tenant work needs; not the identity directory, not
// the queues' tables, not graphile-worker's functions. SECURITY DEFINER
// functions are the tenant role's only, not every role's through PUBLIC.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { startTestPlatform, tenantWithAdmin } from '../harness.ts';

t.test('the tenant role is refused the queues, the users table and other roles the definer functions', async (t) => {
  const tp = await startTestPlatform(t);
  const tenant = await tenantWithAdmin(tp, 'hardening');
  const pool = tp.platform.core.pool;

  /** Runs `statement` in a transaction as `role` (rolled back); the error code, or 'ok'. */
  const as = async (role: string, statement: string): Promise<string> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SET LOCAL ROLE ${role}; SET LOCAL app.tenant_id = '${tenant.alias}'`);
      await client.query(statement);
      return 'ok';
    } catch (err) {
      return (err as { code?: string }).code ?? String(err);
    } finally {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
    }
  };

  const denied = '42501';
  t.equal(await as('platform_tenant', 'SELECT * FROM pgboss.job'), denied, 'pg-boss jobs are not readable');
  t.equal(await as('platform_tenant', 'SELECT data FROM pgboss.job_common'), denied, 'nor their payloads');
  t.equal(await as('platform_tenant', `UPDATE pgboss.job SET state = 'cancelled'`), denied, 'nor changeable');
  t.equal(await as('platform_tenant', 'DELETE FROM pgboss.job'), denied);
  t.equal(await as('platform_tenant', 'SELECT * FROM pgboss.schedule'), denied);
  t.equal(await as('platform_tenant', 'SELECT * FROM users'), denied, 'the identity directory is not readable');
  t.equal(await as('platform_tenant', `UPDATE users SET organizations = '{}'`), denied);
  t.equal(await as('platform_tenant', `SELECT graphile_worker.add_job('x')`), denied, "graphile-worker's add_job is not callable");
  t.equal(await as('platform_tenant', 'SELECT * FROM graphile_worker.jobs'), denied);
  // What tenant transactions need still works.
  t.equal(await as('platform_tenant', `SELECT platform_add_job('no.such.task', '{}'::json, NULL, now() + interval '1 day', 1, 'hardening-probe', 'replace')`), 'ok');
  t.equal(await as('platform_tenant', `SELECT platform_add_jobs('[{"identifier": "no.such.task", "payload": {}, "run_at": "2999-01-01T00:00:00Z", "priority": -1}]'::json)`), 'ok');
  t.equal(await as('platform_tenant', `SELECT graphile_worker.add_jobs(ARRAY[]::graphile_worker.job_spec[])`), denied, "graphile-worker's add_jobs is not callable");
  t.equal(await as('platform_tenant', `SELECT * FROM ingestion_keyword_candidates(to_tsquery('english', 'x'), to_tsquery('portuguese', 'x'), NULL, 10, 10)`), 'ok');
  t.equal(await as('platform_tenant', `SELECT * FROM ingestion_fuzzy_terms(ARRAY['x'], 0.3, 3)`), 'ok');

  // Any other role gets only PUBLIC's rights: no SECURITY DEFINER function.
  const other = `t_other_${randomBytes(4).toString('hex')}`;
  await pool.query(`CREATE ROLE ${other} NOLOGIN; GRANT ${other} TO current_user`);
  t.teardown(async () => {
    await pool.query(`DROP ROLE IF EXISTS ${other}`).catch(() => {});
  });
  t.equal(await as(other, `SELECT * FROM ingestion_keyword_candidates(to_tsquery('english', 'x'), to_tsquery('portuguese', 'x'), NULL, 10, 10)`), denied);
  t.equal(await as(other, `SELECT * FROM ingestion_fuzzy_terms(ARRAY['x'], 0.3, 3)`), denied);
  t.equal(await as(other, `SELECT platform_add_job('x', '{}'::json, NULL, NULL, 1, NULL, NULL)`), denied);
  t.equal(await as(other, `SELECT platform_add_jobs('[]'::json)`), denied);
  t.equal(await as(other, `SELECT platform_remove_job('x')`), denied);

  // Sending a pg-boss job inside a tenant transaction (what ingestion does) still works.
  const id = await tp.platform.core.withTenant(tenant.alias, (trx) =>
    tp.platform.core.jobs.enqueueLong('ingestion.reconcile', { tenant_id: tenant.alias }, { trx, singletonKey: 'reconcile/probe' }));
  t.ok(id, 'a long job was sent from a tenant transaction');
});
