// The isolation policy of lake tables reads the acting tenant once per
// statement (an InitPlan), not once per row: new tables get that form, and
// sql/0003 rewrites tables made with the earlier form. Either way the rule is
// the same: a tenant role sees and writes only its own rows of the table.
import { readFile } from 'node:fs/promises';
import t from 'tap';
import { sql } from 'kysely';
import { lakePlatform, ORDERS, ordersDataset, records } from './helpers.ts';

const MIGRATION = new URL('../sql/0003_policy_setting_once.sql', import.meta.url);

t.test('lake table policies read the tenant setting once per statement, and still isolate tenants', async (t) => {
  const { tp, lake } = await lakePlatform(t);
  const { db, withTenant } = tp.platform.core;
  await ordersDataset(lake);
  const policy = async () => (await sql<{ qual: string; with_check: string }>`SELECT qual, with_check FROM pg_policies
    WHERE schemaname = 'raw' AND tablename = 'acme.orders' AND policyname = 'tenant_isolation'`.execute(db)).rows[0]!;
  t.match((await policy()).qual, /\(\s*SELECT current_setting\('app\.tenant_id'::text, true\)/, 'a new table: the InitPlan form');

  // A table with the earlier form (per-row current_setting), as an install made before 0003 has.
  await sql.raw(`ALTER POLICY tenant_isolation ON raw."acme.orders" USING (_tenant_id = current_setting('app.tenant_id', true))
    WITH CHECK (_tenant_id = current_setting('app.tenant_id', true) AND _tenant_id = 'acme')`).execute(db);
  t.notMatch((await policy()).qual, /SELECT/, 'the earlier form');
  await sql.raw(await readFile(MIGRATION, 'utf8')).execute(db);
  const migrated = await policy();
  t.match(migrated.qual, /\(\s*SELECT current_setting\('app\.tenant_id'::text, true\)/, 'rewritten by 0003');
  t.match(migrated.with_check, /SELECT current_setting.*AND \(_tenant_id = 'acme'::text\)/s, 'the owner check kept');
  await sql.raw(await readFile(MIGRATION, 'utf8')).execute(db);
  t.same(await policy(), migrated, 'running it again changes nothing');

  const write = await lake.write('acme', ORDERS, { mode: 'append', source: records({ id: 1, name: 'a' }, { id: 2, name: 'b' }) });
  t.equal(write.rowsAdded, 2, 'the owner writes through the migrated policy');
  const countAs = (tenant: string) => withTenant(tenant, async (trx) =>
    Number((await sql<{ n: string }>`SELECT count(*) AS n FROM raw."acme.orders"`.execute(trx)).rows[0]!.n));
  t.equal(await countAs('acme'), 2, 'the owner sees its rows');
  t.equal(await countAs('beta'), 0, 'another tenant naming the table sees nothing');
  await t.rejects(withTenant('beta', (trx) => sql`INSERT INTO raw."acme.orders" (_snapshot_from, id) VALUES (1, 3)`.execute(trx)),
    /row-level security/, 'nor adds a row to it');
  await t.rejects(withTenant('beta', (trx) => sql`INSERT INTO raw."acme.orders" (_tenant_id, _snapshot_from, id) VALUES ('acme', 1, 3)`.execute(trx)),
    /row-level security/, 'not even naming the owner');
});
