// withTenant's transaction: committed when the work resolves, rolled back
// when it throws (the work's error reaches the caller), refused when an
// earlier statement left it aborted, and closed to every statement once the
// work is over; each transaction has its own connection.
import t from 'tap';
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import { startTestPlatform, tenantWithAdmin } from '../harness.ts';

t.test('a tenant transaction from begin to release', async (t) => {
  const tp = await startTestPlatform(t);
  await tenantWithAdmin(tp, 'acme');
  const { withTenant } = tp.platform.core;
  const count = (name: string) => withTenant('acme', async (trx) =>
    (await trx.selectFrom('clients').select('id').where('name', '=', name).execute()).length);
  const insert = (trx: TenantTransaction, name: string) =>
    trx.insertInto('clients').values({ tenant_id: 'acme', name, client_key: `ck_${name}` } as never).execute();

  t.same(await withTenant('acme', async (trx) => {
    await insert(trx, 'kept');
    return sql<{ role: string; tenant: string }>`SELECT current_user AS role, current_setting('app.tenant_id') AS tenant`.execute(trx);
  }).then((r) => r.rows[0]), { role: 'platform_tenant', tenant: 'acme' }, 'the tenant role and setting hold inside');
  t.equal(await count('kept'), 1, 'committed');

  await t.rejects(withTenant('acme', async (trx) => {
    await insert(trx, 'undone');
    throw new Error('the work failed');
  }), /the work failed/, 'the work\'s own error');
  t.equal(await count('undone'), 0, 'rolled back');

  await t.rejects(withTenant('acme', async (trx) => {
    await insert(trx, 'aborted');
    await sql`SELECT 1 / 0`.execute(trx).catch(() => {});
  }), 'a transaction an error left aborted does not pass for committed');
  t.equal(await count('aborted'), 0);

  let kept: TenantTransaction | undefined;
  await withTenant('acme', async (trx) => {
    kept = trx;
  });
  await t.rejects(kept!.selectFrom('clients').select('id').execute(), /committed or rolled back/, 'closed once the work is over');

  const pids = await Promise.all([1, 2, 3].map(() => withTenant('acme', async (trx) => {
    const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid, pg_sleep(0.05)`.execute(trx);
    return rows[0].pid;
  })));
  t.equal(new Set(pids).size, 3, 'concurrent transactions, a connection each');
  t.equal(await count('kept'), 1, 'the pool still serves after all of it');
});
