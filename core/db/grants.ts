// The tenant role needs table rights in every schema that tenant transactions
// write to (public; row-level security decides the rows), and no more: not
// the identity directory (users), not the queues' tables beyond sending a
// pg-boss job, not graphile-worker's functions (platform_add_job wraps them).
// Both run at every boot, and apply only when their fingerprint changed (boot-state.ts).
import type pg from 'pg';
import { applyWhenChanged } from './boot-state.ts';

// SECURITY DEFINER functions run as their owner: nobody but the tenant role
// (whose transactions need them) may call them, not every role through PUBLIC.
const DEFINER_FUNCTIONS_TO_TENANT_ONLY = `DO $$
DECLARE f regprocedure;
BEGIN
  FOR f IN SELECT p.oid::regprocedure FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
           WHERE n.nspname = 'public' AND p.prosecdef LOOP
    EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
    EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO platform_tenant', f);
  END LOOP;
END $$`;

// pg-boss jobs are sent inside tenant transactions (enqueueLong with trx):
// its insert reads the queue's settings, inserts into the queue's job table
// (a partition of pgboss.job) and returns the id (and start_after, which
// decides its NOTIFY). That, and nothing else: no reading or changing other
// tenants' jobs.
const PGBOSS_SEND_ONLY = `DO $$
DECLARE t record;
BEGIN
  EXECUTE 'REVOKE ALL ON ALL TABLES IN SCHEMA pgboss FROM platform_tenant';
  EXECUTE 'REVOKE ALL ON ALL SEQUENCES IN SCHEMA pgboss FROM platform_tenant';
  EXECUTE 'GRANT USAGE ON SCHEMA pgboss TO platform_tenant';
  EXECUTE 'GRANT SELECT ON pgboss.queue TO platform_tenant';
  FOR t IN SELECT c.oid::regclass AS rel FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'pgboss' AND c.relkind IN ('r', 'p')
             AND (c.relname = 'job' OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'pgboss.job'::regclass)) LOOP
    EXECUTE format('GRANT INSERT, SELECT (id, start_after) ON %s TO platform_tenant', t.rel);
  END LOOP;
END $$`;

// graphile-worker's functions (add_job, remove_job, complete_jobs…) are the
// worker's own: tenant transactions enqueue through platform_add_jobs and
// platform_remove_job (SECURITY DEFINER, granted to the tenant role above).
const GRAPHILE_WORKER_OWNER_ONLY = `REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA graphile_worker FROM PUBLIC;
  REVOKE ALL ON SCHEMA graphile_worker FROM PUBLIC`;

/** The tenant role's rights in the queues' schemas: sending pg-boss jobs only, nothing of graphile-worker's. */
export async function grantTenantQueueRole(pool: pg.Pool): Promise<boolean> {
  return applyWhenChanged(pool, { name: 'tenant-role:queues', schemas: ['pgboss', 'graphile_worker'], statements: [PGBOSS_SEND_ONLY, GRAPHILE_WORKER_OWNER_ONLY] });
}

export async function grantTenantRole(pool: pg.Pool, schemas: string[]): Promise<boolean> {
  const statements = schemas.flatMap((schema) => [
    `GRANT USAGE ON SCHEMA ${schema} TO platform_tenant`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO platform_tenant`,
    `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${schema} TO platform_tenant`,
    `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${schema} TO platform_tenant`,
  ]);
  if (schemas.includes('public')) {
    // Identities of every tenant, and the platform's own bookkeeping: read and written only by the platform's own connection.
    statements.push('REVOKE ALL ON platform_migrations, platform_settings, platform_boot_state, users FROM platform_tenant', DEFINER_FUNCTIONS_TO_TENANT_ONLY);
  }
  return applyWhenChanged(pool, { name: `tenant-role:${schemas.join(',')}`, schemas, statements });
}
