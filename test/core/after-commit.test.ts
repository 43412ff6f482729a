// afterCommit: work registered in a tenant transaction runs once it has
// committed, never after a rollback; a transaction withTenant did not open
// (one begun by hand, a savepoint) is refused, so its caller takes another way.
import t from 'tap';
import { sql } from 'kysely';
import { afterCommit } from 'agent-platform/sdk';
import { startTestPlatform, tenantWithAdmin } from '../harness.ts';

t.test('callbacks run after the commit, in order; none after a rollback; another transaction is refused', async (t) => {
  const tp = await startTestPlatform(t);
  await tenantWithAdmin(tp, 'acme');
  const { withTenant, withTenantSession } = tp.platform.core;
  const calls: string[] = [];

  const result = await withTenant('acme', async (trx) => {
    t.equal(afterCommit(trx, () => calls.push('first')), true);
    afterCommit(trx, () => calls.push('second'));
    await sql`SELECT 1`.execute(trx);
    t.same(calls, [], 'nothing runs before the commit');
    return 'done';
  });
  t.equal(result, 'done');
  t.same(calls, ['first', 'second'], 'both ran, in order, before withTenant resolved');

  await t.rejects(withTenant('acme', async (trx) => {
    afterCommit(trx, () => calls.push('rolled back'));
    throw new Error('the work failed');
  }), /the work failed/);
  t.notOk(calls.includes('rolled back'), 'a rolled-back transaction runs none');

  await tp.platform.core.db.transaction().execute(async (trx) => {
    t.equal(afterCommit(trx as never, () => calls.push('own')), false, 'a transaction withTenant did not open is refused');
  });
  t.notOk(calls.includes('own'));

  await withTenantSession('acme', async ({ trx }) => {
    afterCommit(trx, () => calls.push('session'));
  });
  t.ok(calls.includes('session'), 'withTenantSession runs them too');
});
