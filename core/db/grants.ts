// The tenant role needs the same table rights in every schema that tenant
// transactions write to (public, and the two queues' schemas, since jobs are
// enqueued inside tenant transactions). Row-level security decides the rows.
import type pg from 'pg';

export async function grantTenantRole(pool: pg.Pool, schemas: string[]): Promise<void> {
  const statements = schemas.flatMap((schema) => [
    `GRANT USAGE ON SCHEMA ${schema} TO platform_tenant`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO platform_tenant`,
    `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${schema} TO platform_tenant`,
    `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${schema} TO platform_tenant`,
  ]);
  // Under the ledger lock: concurrent GRANTs on one table fail with "tuple concurrently updated".
  const client = await pool.connect();
  try {
    await client.query(`BEGIN;
      LOCK TABLE platform_migrations IN EXCLUSIVE MODE;
      ${statements.join(';\n')};
      REVOKE ALL ON platform_migrations, platform_settings FROM platform_tenant;
      COMMIT;`);
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
