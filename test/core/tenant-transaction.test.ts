// withTenant's transaction: committed when the work resolves, rolled back
// when it throws (the work's error reaches the caller), refused when an
// earlier statement left it aborted, and closed to every statement once the
// work is over; each transaction has its own connection. Its opening goes
// out with the first statement: when the opening fails, nothing is committed.
import t from 'tap';
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import { startTestPlatform, tenantWithAdmin } from '../harness.ts';
import { openDatabase } from '../../core/db/database.ts';

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

t.test('an opening that fails: its error, and nothing the work sent behind it is committed', async (t) => {
  const tp = await startTestPlatform(t);
  await tenantWithAdmin(tp, 'acme');
  const database = openDatabase(tp.databaseUrl);
  t.teardown(() => database.close());
  const direct = database.directTransaction!;
  const names = async () => (await database.pool.query<{ name: string }>(`SELECT name FROM clients WHERE name LIKE 'opening-%'`)).rows.map((r) => r.name);
  // The work's insert goes out behind the opening, before its answer; the opening fails at run time.
  const insert = (trx: Parameters<Parameters<typeof direct>[1]>[0], name: string) =>
    trx.insertInto('clients').values({ tenant_id: 'acme', name, client_key: `ck_${name}` } as never).execute();
  await t.rejects(direct('SELECT 1 / 0', (trx) => insert(trx, 'opening-failed')), /division by zero/, 'the opening\'s error, not the work\'s');
  await t.rejects(direct('SELECT 1 / 0', async (trx) => {
    await insert(trx, 'opening-caught').catch(() => {});
    return 'done';
  }), /division by zero/, 'also when the work caught its own statement\'s failure');
  t.same(await direct('SELECT 1', async (trx) => {
    await insert(trx, 'opening-ok');
    return 'done';
  }), 'done');
  t.same(await names(), ['opening-ok'], 'only the transaction whose opening held is committed');

  const pooled = await database.pool.connect();
  t.equal(pooled.pipeline, true, 'the pool\'s connections pipeline their statements');
  pooled.release();
  const inSession = await tp.platform.core.withTenantSession('acme', async ({ client }) => client.pipeline);
  t.equal(inSession, false, 'a session\'s connection (COPY, cursors) does not');
});
