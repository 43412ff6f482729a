// compiledStatement against PostgreSQL: in a tenant transaction it runs on
// the transaction's own connection (its writes are seen, row-level security
// holds, a rollback takes it back), outside one through kysely; a
// transaction whose work is over refuses it as kysely refuses any statement.
import t from 'tap';
import { sql } from 'kysely';
import { compiledStatement, type TenantTransaction } from 'agent-platform/sdk';
import { startTestPlatform, tenantWithAdmin } from '../harness.ts';

const clientByName = compiledStatement<{ name: string }, { id: number; tenant_id: string }>(
  (db, param) => db.selectFrom('clients').select(['id', 'tenant_id']).where('name', '=', param('name')),
);

t.test('a compiled statement in and out of tenant transactions', async (t) => {
  const tp = await startTestPlatform(t);
  await tenantWithAdmin(tp, 'acme');
  await tenantWithAdmin(tp, 'globex');
  const { withTenant, db } = tp.platform.core;
  const insert = (trx: TenantTransaction, tenant: string, name: string) =>
    trx.insertInto('clients').values({ tenant_id: tenant, name, client_key: `ck_${tenant}_${name}` } as never).execute();

  await withTenant('acme', async (trx) => {
    await insert(trx, 'acme', 'shared-name');
    t.same((await clientByName(trx, { name: 'shared-name' })).map((r) => r.tenant_id), ['acme'], 'sees the transaction\'s own write');
  });
  await withTenant('globex', async (trx) => {
    t.same(await clientByName(trx, { name: 'shared-name' }), [], 'another tenant\'s row stays hidden');
    await insert(trx, 'globex', 'shared-name');
    t.same((await clientByName(trx, { name: 'shared-name' })).map((r) => r.tenant_id), ['globex']);
  });

  await t.rejects(withTenant('acme', async (trx) => {
    await insert(trx, 'acme', 'rolled-back');
    t.equal((await clientByName(trx, { name: 'rolled-back' })).length, 1);
    throw new Error('undo');
  }), /undo/);
  t.same(await withTenant('acme', (trx) => clientByName(trx, { name: 'rolled-back' })), [], 'the rollback took it back');

  const both = await withTenant('acme', (trx) => Promise.all([
    clientByName(trx, { name: 'shared-name' }), sql<{ n: number }>`SELECT 1 AS n`.execute(trx), clientByName(trx, { name: 'nobody' }),
  ]));
  t.same([both[0].length, both[1].rows[0].n, both[2].length], [1, 1, 0], 'beside kysely\'s own statements on the same connection');

  const global = await clientByName(db, { name: 'shared-name' });
  t.same(global.map((r) => r.tenant_id).sort(), ['acme', 'globex'], 'outside a tenant transaction it runs through kysely');

  let kept: TenantTransaction | undefined;
  await withTenant('acme', async (trx) => {
    kept = trx;
  });
  await t.rejects(clientByName(kept!, { name: 'shared-name' }), /committed|rolled back/i, 'a finished transaction refuses it');
});
