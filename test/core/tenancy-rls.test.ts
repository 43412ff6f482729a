import t from 'tap';
import { sql } from 'kysely';
import { startTestPlatform, tenantWithAdmin } from '../harness.ts';

t.test('row-level security isolates tenants', async (t) => {
  const tp = await startTestPlatform(t);
  const a = await tenantWithAdmin(tp, 'rls-a');
  const b = await tenantWithAdmin(tp, 'rls-b');
  for (const [tenant, name] of [[a, 'a-web'], [a, 'a-mobile'], [b, 'b-web']] as const) {
    const created = await tp.request({ method: 'POST', url: '/api/admin/clients', token: tenant.token, payload: { name } });
    t.equal(created.status, 201);
  }
  const { withTenant, db } = tp.platform.core;

  const seenByB = await withTenant('rls-b', (trx) => trx.selectFrom('clients').select(['name', 'tenant_id']).execute());
  t.same(seenByB.map((row) => row.name).sort(), ['b-web', 'default'], 'tenant b sees only its rows (and its default client)');
  t.ok(seenByB.every((row) => row.tenant_id === 'rls-b'));

  const aIdsAsB = await withTenant('rls-b', (trx) =>
    trx.selectFrom('clients').select('id').where('tenant_id', '=', 'rls-a').execute());
  t.same(aIdsAsB, [], 'a query naming another tenant\'s id sees nothing');

  const noTenant = await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL ROLE platform_tenant`.execute(trx);
    return (await sql<{ n: number }>`SELECT count(*)::int AS n FROM clients`.execute(trx)).rows[0].n;
  });
  t.equal(noTenant, 0, 'the tenant role with no tenant set sees no rows');

  await t.rejects(
    withTenant('rls-b', (trx) => trx.insertInto('clients').values({ tenant_id: 'rls-a', name: 'sneaky', client_key: 'ck_sneaky' }).execute()),
    /row-level security/,
    'writing another tenant\'s row is refused',
  );

  const mine = await tp.request({ url: '/api/admin/clients', token: a.token });
  const foreignId = (await tp.request({ url: '/api/admin/clients', token: b.token })).body.items[0].id;
  t.equal(mine.body.total, 3, 'its default client and the two it made');
  const foreign = await tp.request({ url: `/api/admin/clients/${foreignId}`, token: a.token });
  t.equal(foreign.status, 404, 'another tenant\'s client id is not found');
});

t.test('every table with a tenant_id column has forced row-level security', async (t) => {
  const tp = await startTestPlatform(t);
  const { rows } = await tp.platform.core.pool.query<{ table: string; enabled: boolean; forced: boolean; policies: number }>(`
    SELECT c.relname AS table, c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced,
           (SELECT count(*)::int FROM pg_policy p WHERE p.polrelid = c.oid) AS policies
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')`);
  t.ok(rows.length >= 2, 'tenant-owned tables exist');
  for (const row of rows) {
    t.ok(row.enabled && row.forced && row.policies > 0, `${row.table} has forced RLS with a policy`);
  }
});

t.test('withTenant refuses a malformed tenant id', async (t) => {
  const tp = await startTestPlatform(t);
  await t.rejects(tp.platform.core.withTenant("x'; DROP TABLE clients; --", async () => 1), /Invalid tenant id/);
});

t.test('withTenantSession: one tenant transaction on one connection, COPY included, under row-level security', async (t) => {
  const tp = await startTestPlatform(t);
  await tenantWithAdmin(tp, 'sess-a');
  await tenantWithAdmin(tp, 'sess-b');
  const { withTenant, withTenantSession } = tp.platform.core;
  const { from } = await import('pg-copy-streams');
  const { pipeline } = await import('node:stream/promises');
  const { Readable } = await import('node:stream');
  // PostgreSQL refuses COPY FROM into a table under row-level security: rows
  // land in a temporary table, then one INSERT … SELECT (checked by the policy).
  const land = async (client: import('pg').PoolClient, line: string) => {
    await client.query('CREATE TEMP TABLE landed (tenant_id text, name text, client_key text) ON COMMIT DROP');
    await pipeline(Readable.from([line]), client.query(from('COPY landed FROM STDIN')));
    await client.query('INSERT INTO clients (tenant_id, name, client_key) SELECT * FROM landed');
  };

  // COPY on the session's connection and a kysely insert commit together.
  await withTenantSession('sess-a', async ({ trx, client }) => {
    await land(client, 'sess-a\tcopied\tck_copied\n');
    await trx.insertInto('clients').values({ tenant_id: 'sess-a', name: 'inserted', client_key: 'ck_inserted' }).execute();
  });
  // Each tenant starts with its "default" client.
  const names = await withTenant('sess-a', (trx) => trx.selectFrom('clients').select('name').where('name', '!=', 'default').orderBy('name').execute());
  t.same(names.map((row) => row.name), ['copied', 'inserted']);

  // Row-level security holds on the session: another tenant's rows are refused.
  await t.rejects(withTenantSession('sess-b', ({ client }) => land(client, 'sess-a\tsneaky\tck_sneaky\n')), /row-level security/);
  // A failure rolls back both handles' statements.
  await t.rejects(withTenantSession('sess-b', async ({ trx, client }) => {
    await trx.insertInto('clients').values({ tenant_id: 'sess-b', name: 'lost', client_key: 'ck_lost' }).execute();
    await client.query('SELECT 1/0');
  }), /division by zero/);
  t.same(await withTenant('sess-b', (trx) => trx.selectFrom('clients').select('name').where('name', '!=', 'default').execute()), [], 'nothing of the failed session committed');
  t.same(await withTenant('sess-a', (trx) => trx.selectFrom('clients').select('name').where('name', '=', 'sneaky').execute()), []);
});
