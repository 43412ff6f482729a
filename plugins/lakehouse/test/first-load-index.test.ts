// A large first load through the stage (here: a batch to deduplicate, so not
// the COPY straight into the table of bulk-first-load.test.ts) builds the
// dataset's key index after the rows (the owner's functions of sql/0002): the
// index is there afterwards with the definition ddl.ts gives it, a later
// write uses it as before, and another tenant cannot drop or build the index
// of a dataset it does not own.
import t from 'tap';
import { sql } from 'kysely';
import { lakePlatform, ORDERS, ordersDataset } from './helpers.ts';

const ROWS = 12_000;
const many = (from: number, count: number, name: string) =>
  Array.from({ length: count }, (_, i) => ({ id: from + i, name, amount: i, updated_at: '2025-01-01T00:00:00Z' }));

t.test('a first load of many rows keeps the key index; another tenant cannot touch it', async (t) => {
  const { tp, lake } = await lakePlatform(t);
  await ordersDataset(lake);
  const indexes = async () => (await sql<{ indexname: string; indexdef: string }>`SELECT indexname, indexdef FROM pg_indexes
    WHERE schemaname = 'raw' AND tablename = 'acme.orders'`.execute(tp.platform.core.db)).rows;
  const indexOid = async () => (await sql<{ oid: number }>`SELECT indexrelid::int AS oid FROM pg_index WHERE indrelid = 'raw."acme.orders"'::regclass`
    .execute(tp.platform.core.db)).rows[0]?.oid;
  const oidBefore = await indexOid();
  const before = await indexes();
  t.equal(before.length, 1, 'the dataset has its key index');

  const first = await lake.write('acme', ORDERS, { mode: 'overwrite', source: { kind: 'records', batches: [many(1, ROWS, 'first')] } });
  t.match(first, { created: true, rowsStaged: ROWS, rowsAdded: ROWS, rowCount: ROWS });
  t.same(await indexes(), before, 'built again after the load, as it was');
  t.not(await indexOid(), oidBefore, 'a new index: dropped for the load and built after it');
  const oidAfterFirst = await indexOid();

  // The next overwrite compares by key (through the index): 10 rows change, the rest keep their versions.
  const rows = many(1, ROWS, 'first').map((row) => (row.id <= 10 ? { ...row, name: 'second' } : row));
  const second = await lake.write('acme', ORDERS, { mode: 'overwrite', uniqueKeys: true, source: { kind: 'records', batches: [rows] } });
  t.match(second, { created: true, rowsAdded: 10, rowsRemoved: 10, rowCount: ROWS });
  t.equal(await indexOid(), oidAfterFirst, 'a write into a dataset with rows keeps its index');

  const dataset = (await sql<{ id: number }>`SELECT id FROM lake_datasets WHERE dataset_id = ${ORDERS}`.execute(tp.platform.core.db)).rows[0]!;
  for (const fn of ['lake_drop_key_index', 'lake_create_key_index']) {
    await t.rejects(tp.platform.core.withTenant('beta', (trx) => sql.raw(`SELECT ${fn}(${Number(dataset.id)})`).execute(trx)), /not the acting tenant/, `${fn} as another tenant`);
  }
  await t.rejects(tp.platform.core.withTenant('beta', (trx) => sql.raw(`SELECT * FROM lake_key_index_target(${Number(dataset.id)})`).execute(trx)), /not the acting tenant|permission denied/);
  t.same(await indexes(), before, 'still there');
});
