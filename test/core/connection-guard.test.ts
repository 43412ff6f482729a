// The second-connection guard (core/db/connection-guard.ts) on a real
// PostgreSQL: inside a tenant transaction, another pooled connection (the
// pool's kysely, pool.query, a nested withTenant, a pg-boss send without the
// transaction) is refused with SecondConnectionError when the guard is on,
// and allowed inside onSecondConnection or once the transaction has ended.
import t from 'tap';
import { sql } from 'kysely';
import { configuredGuard, onSecondConnection, SecondConnectionError, setConnectionGuard } from '../../core/db/connection-guard.ts';
import { startTestPlatform, tenantWithAdmin } from '../harness.ts';

t.test('a second connection inside a tenant transaction', async (t) => {
  const tp = await startTestPlatform(t);
  await tenantWithAdmin(tp, 'acme');
  const core = tp.platform.core;
  setConnectionGuard('throw');
  t.teardown(() => setConnectionGuard(configuredGuard()));

  const refusals = await core.withTenant('acme', async (trx) => {
    const refused: string[] = [];
    const attempt = async (name: string, work: () => Promise<unknown>) => {
      try {
        await work();
      } catch (err) {
        if (err instanceof SecondConnectionError) refused.push(name);
        else throw err;
      }
    };
    await attempt('kysely on the pool', () => sql`SELECT 1`.execute(core.db));
    await attempt('pool.query', () => core.pool.query('SELECT 1'));
    await attempt('a nested withTenant', () => core.withTenant('acme', (inner) => sql`SELECT 1`.execute(inner)));
    await attempt('a pg-boss send', () => core.jobs.enqueueLong('chat.sweep', {}));
    // The transaction itself is not a second connection.
    t.equal((await sql<{ one: number }>`SELECT 1 AS one`.execute(trx)).rows[0]!.one, 1);
    // Declared on purpose: allowed.
    t.equal((await onSecondConnection(() => core.pool.query('SELECT 1 AS one'))).rows[0].one, 1);
    return refused;
  });
  t.same(refusals, ['kysely on the pool', 'pool.query', 'a nested withTenant', 'a pg-boss send']);
  t.equal((await sql<{ one: number }>`SELECT 1 AS one`.execute(core.db)).rows[0]!.one, 1, 'after the transaction: any connection');

  setConnectionGuard('off');
  await core.withTenant('acme', () => sql`SELECT 1`.execute(core.db));
  t.pass('with the guard off (an external database in production) nothing is checked');
});
