// A first load COPYs straight into the dataset's table (sql/0004): row-level
// security is off for that one transaction, under an ACCESS EXCLUSIVE lock,
// with a CHECK constraint in its place. After it — committed or rolled back —
// the table is exactly as lake tables are (and analyzed, once committed); a table that held a row is never
// loaded that way; only the owner can open the window, and inside it a row of
// another tenant is refused; readers of the dataset are never held by it.
import { Readable } from 'node:stream';
import t from 'tap';
import { sql } from 'kysely';
import { lakePlatform, ORDERS, ordersDataset, records } from './helpers.ts';

type Platform = Awaited<ReturnType<typeof lakePlatform>>;

/** What makes a lake table one: its policies, RLS flags, column defaults, constraints and indexes. */
async function tableShape({ tp }: Platform, table = 'acme.orders') {
  const { db } = tp.platform.core;
  const relation = `raw."${table}"`;
  const flags = (await sql<{ enabled: boolean; forced: boolean }>`SELECT relrowsecurity AS enabled, relforcerowsecurity AS forced
    FROM pg_class WHERE oid = ${relation}::regclass`.execute(db)).rows[0];
  const defaults = (await sql<{ name: string; def: string }>`SELECT a.attname AS name, pg_get_expr(d.adbin, d.adrelid) AS def
    FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum WHERE d.adrelid = ${relation}::regclass ORDER BY 1`.execute(db)).rows;
  const constraints = (await sql<{ conname: string }>`SELECT conname FROM pg_constraint WHERE conrelid = ${relation}::regclass ORDER BY 1`.execute(db)).rows;
  const policies = (await sql<{ policyname: string; qual: string; with_check: string | null }>`SELECT policyname, qual, with_check FROM pg_policies
    WHERE schemaname = 'raw' AND tablename = ${table} ORDER BY 1`.execute(db)).rows;
  const indexes = (await sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes WHERE schemaname = 'raw' AND tablename = ${table} ORDER BY 1`.execute(db)).rows;
  return { flags, defaults, constraints, policies, indexes };
}

async function keyIndexOid({ tp }: Platform): Promise<number | undefined> {
  return (await sql<{ oid: number }>`SELECT indexrelid::int AS oid FROM pg_index WHERE indrelid = 'raw."acme.orders"'::regclass`
    .execute(tp.platform.core.db)).rows[0]?.oid;
}

async function datasetRef({ tp }: Platform): Promise<number> {
  return Number((await sql<{ id: string }>`SELECT id FROM lake_datasets WHERE dataset_id = ${ORDERS}`.execute(tp.platform.core.db)).rows[0]!.id);
}

const ordersAt = async ({ tp, lake }: Platform, tenant: string, snapshot?: string) => {
  const dataset = await lake.readable('acme', ORDERS);
  return tp.platform.core.withTenant(tenant, async (trx) =>
    (await sql.raw<{ id: string; name: string }>(`${lake.asOf(dataset, snapshot)} ORDER BY id`).execute(trx)).rows.map((row) => `${row.id}:${row.name}`));
};

t.test('a first load goes straight into the table, and leaves it exactly as lake tables are', async (t) => {
  const platform = await lakePlatform(t);
  const { tp, lake } = platform;
  await ordersDataset(lake);
  const pristine = await tableShape(platform);
  t.match(pristine.flags, { enabled: true, forced: true });
  const indexBefore = await keyIndexOid(platform);

  const written = await lake.write('acme', ORDERS, { mode: 'overwrite', uniqueKeys: true, source: records({ id: 1, name: 'one' }, { id: 2, name: 'two' }) });
  t.match(written, { created: true, rowsStaged: 2, rowsAdded: 2, rowCount: 2 });
  t.not(await keyIndexOid(platform), indexBefore, 'the key index was built after the rows (even for two: the stage path keeps it below 10,000)');
  t.same(await tableShape(platform), pristine, 'policies, forced RLS, defaults, constraints and index as before');
  const statistics = (await sql<{ attname: string }>`SELECT attname FROM pg_stats WHERE schemaname = 'raw' AND tablename = 'acme.orders' ORDER BY 1`
    .execute(tp.platform.core.db)).rows.map((row) => row.attname);
  t.same(statistics, ['_snapshot_from', '_snapshot_to', '_tenant_id', 'amount', 'id', 'name', 'tags', 'updated_at'], 'analyzed: the planner has statistics from the first snapshot on');

  const versions = (await sql<{ tenant: string; from: string; to: string | null }>`SELECT _tenant_id AS tenant, _snapshot_from::text AS from, _snapshot_to::text AS to
    FROM raw."acme.orders"`.execute(tp.platform.core.db)).rows;
  t.same(versions.map((v) => [v.tenant, v.from, v.to]), [['acme', written.snapshotId, null], ['acme', written.snapshotId, null]], 'each row the owner\'s, at the new snapshot, current');
  t.same(await ordersAt(platform, 'acme'), ['1:one', '2:two']);
  t.same(await tp.platform.core.withTenant('beta', async (trx) => (await sql`SELECT * FROM raw."acme.orders"`.execute(trx)).rows), [], 'another tenant naming the table sees nothing');

  // The next write into the loaded table goes through the stage, by key, as any other.
  const second = await lake.write('acme', ORDERS, { mode: 'overwrite', uniqueKeys: true, source: records({ id: 1, name: 'ONE' }, { id: 2, name: 'two' }) });
  t.match(second, { rowsAdded: 1, rowsRemoved: 1, rowCount: 2 });
  t.same(await ordersAt(platform, 'acme', written.snapshotId!), ['1:one', '2:two'], 'time travel to the first load');
});

t.test('a first load that fails leaves the table as it was, and the next one succeeds', async (t) => {
  const platform = await lakePlatform(t);
  const { lake } = platform;
  await ordersDataset(lake);
  const pristine = await tableShape(platform);
  const indexBefore = await keyIndexOid(platform);

  async function* failing() {
    yield [{ id: 1, name: 'one' }];
    throw new Error('the source broke off');
  }
  await t.rejects(lake.write('acme', ORDERS, { mode: 'overwrite', source: { kind: 'records', batches: failing() } }), /the source broke off/);
  // A COPY that fails inside PostgreSQL (a value its column refuses) rolls back the same way.
  const badCopy = Readable.from(['1\tone\tnot-a-number\t\\N\t\\N\n']);
  await t.rejects(lake.write('acme', ORDERS, { mode: 'append', source: { kind: 'copy', properties: ['id', 'name', 'amount', 'updated_at', 'tags'], stream: badCopy } }),
    /invalid input syntax for type numeric/);
  t.same(await tableShape(platform), pristine, 'the window was rolled back with the write: RLS forced, defaults, no CHECK left');
  t.equal(await keyIndexOid(platform), indexBefore, 'the very same key index');
  t.same(await ordersAt(platform, 'acme'), [], 'no row');
  t.equal((await lake.readable('acme', ORDERS)).latestSnapshotId, null, 'no snapshot');

  const written = await lake.write('acme', ORDERS, { mode: 'overwrite', source: records({ id: 3, name: 'three' }) });
  t.match(written, { created: true, rowsAdded: 1 });
  t.same(await ordersAt(platform, 'acme'), ['3:three']);
  t.same(await tableShape(platform), pristine);
});

t.test('a table that held rows is never loaded in the window: its history stays', async (t) => {
  const platform = await lakePlatform(t);
  const { tp, lake } = platform;
  await ordersDataset(lake);
  const first = await lake.write('acme', ORDERS, { mode: 'overwrite', source: records({ id: 1, name: 'one' }) });
  const emptied = await lake.write('acme', ORDERS, { mode: 'overwrite', source: records() });
  t.match(emptied, { rowsRemoved: 1, rowCount: 0 }, 'no current row, one past version');
  const indexBefore = await keyIndexOid(platform);
  const shape = await tableShape(platform);

  const ref = await datasetRef(platform);
  const opened = await tp.platform.core.withTenant('acme', async (trx) =>
    (await sql<{ opened: boolean }>`SELECT lake_bulk_load_begin(${ref}, 1) AS opened`.execute(trx)).rows[0]!.opened);
  t.equal(opened, false, 'the owner function refuses a table with any row, current or past');
  t.same(await tableShape(platform), shape, 'and changes nothing');

  const again = await lake.write('acme', ORDERS, { mode: 'overwrite', source: records({ id: 2, name: 'two' }) });
  t.match(again, { rowsAdded: 1, rowCount: 1 });
  t.equal(await keyIndexOid(platform), indexBefore, 'the stage path: a small load keeps the index');
  t.same(await ordersAt(platform, 'acme', first.snapshotId!), ['1:one'], 'the first snapshot is still there');
  t.same(await ordersAt(platform, 'acme'), ['2:two']);
});

t.test('only the owner opens the window, and inside it a row of another tenant or snapshot is refused', async (t) => {
  const platform = await lakePlatform(t);
  const { tp, lake } = platform;
  await ordersDataset(lake);
  const ref = await datasetRef(platform);
  const shape = await tableShape(platform);
  await t.rejects(tp.platform.core.withTenant('beta', (trx) => sql`SELECT lake_bulk_load_begin(${ref}, 1)`.execute(trx)), /not the acting tenant/, 'begin as another tenant');
  await t.rejects(tp.platform.core.withTenant('beta', (trx) => sql`SELECT lake_bulk_load_end(${ref})`.execute(trx)), /not the acting tenant/, 'end as another tenant');

  const inWindow = (insert: string) => tp.platform.core.withTenant('acme', async (trx) => {
    const opened = (await sql<{ opened: boolean }>`SELECT lake_bulk_load_begin(${ref}, 42) AS opened`.execute(trx)).rows[0]!.opened;
    t.equal(opened, true);
    await sql.raw(insert).execute(trx);
  });
  await t.rejects(inWindow(`INSERT INTO raw."acme.orders" (_tenant_id, id) VALUES ('beta', 1)`), /violates check constraint "lake_bulk_load"/, 'another tenant\'s row');
  await t.rejects(inWindow(`INSERT INTO raw."acme.orders" (_snapshot_from, id) VALUES (41, 1)`), /violates check constraint "lake_bulk_load"/, 'another snapshot');
  await t.rejects(inWindow(`INSERT INTO raw."acme.orders" (_snapshot_to, id) VALUES (43, 1)`), /violates check constraint "lake_bulk_load"/, 'a closed version');
  t.same(await tableShape(platform), shape, 'every refusal rolled the window back');
});

t.test('readers of a dataset in its first load are not held by its lock', async (t) => {
  const platform = await lakePlatform(t);
  const { tp, lake, acme } = platform;
  await ordersDataset(lake);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let landing!: () => void;
  const landed = new Promise<void>((resolve) => (landing = resolve));
  async function* slow() {
    yield [{ id: 1, name: 'one' }];
    landing();
    await gate;
    yield [{ id: 2, name: 'two' }];
  }
  const write = lake.write('acme', ORDERS, { mode: 'append', source: { kind: 'records', batches: slow() } });
  await landed; // the window is open: its ACCESS EXCLUSIVE lock is held

  // A lock wait would fail at once rather than hang: what follows proves no statement waited.
  const dataset = await lake.readable('acme', ORDERS);
  const read = await tp.platform.core.withTenant('acme', async (trx) => {
    await sql`SET LOCAL lock_timeout = '1s'`.execute(trx);
    return (await sql.raw(lake.asOf(dataset)).execute(trx)).rows;
  });
  t.same(read, [], 'a dataset without a snapshot reads as empty without touching its table');
  const preview = await tp.request({ url: `/api/v1/datasets/${ORDERS}/preview`, token: acme.token, tenant: 'acme' });
  t.equal(preview.status, 200);
  t.same(preview.body.rows, []);

  release();
  t.match(await write, { rowsAdded: 2 });
  t.same(await ordersAt(platform, 'acme'), ['1:one', '2:two']);
});

t.test('a binary COPY source must name its fields\' types, and they must be the columns\'', async (t) => {
  const platform = await lakePlatform(t);
  const { lake } = platform;
  await ordersDataset(lake);
  const shape = await tableShape(platform);
  const stream = () => Readable.from([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1')]);
  await t.rejects(lake.write('acme', ORDERS, { mode: 'append', source: { kind: 'copy', format: 'binary', properties: ['id', 'name'], stream: stream() } }),
    /must name the lake types/, 'no types');
  await t.rejects(lake.write('acme', ORDERS, { mode: 'append', source: { kind: 'copy', format: 'binary', properties: ['id', 'name'], types: ['bigint', 'bigint'], stream: stream() } }),
    /must name the lake types/, 'a type that is not the column\'s');
  t.same(await tableShape(platform), shape);
  t.same(await ordersAt(platform, 'acme'), []);
});
