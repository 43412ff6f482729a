// Lake writes through the lakehouse API: each write one snapshot (or none
// when nothing changed), the write modes, time travel, retention, and
// row-level security on lake tables.
import t from 'tap';
import { sql } from 'kysely';
import { lakePlatform, ORDERS, ordersDataset, records } from './helpers.ts';

const at = (iso: string) => new Date(iso).toISOString();

t.test('overwrite by key: snapshots hold exactly the rows written; unchanged rows keep their versions; nothing changed, no snapshot', async (t) => {
  const { tp, lake } = await lakePlatform(t);
  await ordersDataset(lake);
  const first = await lake.write('acme', ORDERS, {
    mode: 'overwrite',
    source: records(
      { id: 1, name: 'one', amount: '10.50', updated_at: '2025-01-01T00:00:00Z', tags: ['a'] },
      { id: 2, name: 'two', amount: 20, updated_at: '2025-01-01T00:00:00Z', tags: { k: 'v' } },
      { id: 3, name: 'three', amount: '30', updated_at: '2025-01-01T00:00:00Z' },
    ),
  });
  t.match(first, { created: true, rowsStaged: 3, rowsAdded: 3, rowsRemoved: 0, rowCount: 3 });
  t.ok(BigInt(first.snapshotId!) > 2n ** 53n, `snapshot ids are 64-bit, past 2^53 (${first.snapshotId})`);

  const same = await lake.write('acme', ORDERS, {
    mode: 'overwrite',
    source: records(
      { id: 3, name: 'three', amount: '30.0', updated_at: '2025-01-01T00:00:00Z' },
      { id: 1, name: 'one', amount: '10.50', updated_at: '2025-01-01T00:00:00Z', tags: ['a'] },
      { id: 2, name: 'two', amount: 20, updated_at: '2025-01-01T00:00:00Z', tags: { k: 'v' } },
    ),
  });
  t.match(same, { created: false, rowsAdded: 0, rowsRemoved: 0, rowCount: 3 }, 'the same rows: no new snapshot');
  t.equal(same.snapshotId, first.snapshotId);

  const second = await lake.write('acme', ORDERS, {
    mode: 'overwrite',
    source: records(
      { id: 1, name: 'one', amount: '10.50', updated_at: '2025-01-01T00:00:00Z', tags: ['a'] },
      { id: 2, name: 'TWO', amount: 22, updated_at: '2025-02-01T00:00:00Z', tags: { k: 'v' } },
      { id: 4, name: 'four', amount: 40, updated_at: '2025-02-01T00:00:00Z' },
    ),
  });
  t.match(second, { created: true, rowsAdded: 2, rowsRemoved: 2, rowCount: 3 }, 'one changed, one gone, one new');
  t.ok(BigInt(second.snapshotId!) > BigInt(first.snapshotId!), 'snapshot ids grow');

  const { rows: versions } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM raw."acme.orders"`.execute(tp.platform.core.db);
  t.equal(versions[0].n, 5, 'row 1 kept its one version; 2 has two; 3 is closed; 4 is new');

  const dataset = await lake.readable('acme', ORDERS);
  const read = (snapshot: string) => tp.platform.core.withTenant('acme', async (trx) =>
    (await sql.raw<{ id: string; name: string }>(`${lake.asOf(dataset, snapshot)} ORDER BY id`).execute(trx)).rows.map((row) => `${row.id}:${row.name}`));
  t.same(await read(first.snapshotId!), ['1:one', '2:two', '3:three'], 'time travel: the first snapshot as it was');
  t.same(await read(second.snapshotId!), ['1:one', '2:TWO', '4:four'], 'and the second');
  t.equal(dataset.latestSnapshotId, second.snapshotId);
  t.equal(dataset.rowCount, 3);
});

t.test('append_dedup by key and cursor: the newest version of a key wins, a late older row does not replace it; keys not in the batch stay', async (t) => {
  const { tp, lake } = await lakePlatform(t);
  await ordersDataset(lake);
  const dedup = (...rows: Record<string, unknown>[]) => lake.write('acme', ORDERS, { mode: 'append_dedup', cursorField: 'updated_at', source: records(...rows) });
  const first = await dedup(
    { id: 1, name: 'a', updated_at: '2025-01-01T00:00:00Z' },
    { id: 1, name: 'a-newer', updated_at: '2025-01-02T00:00:00Z' },
    { id: 2, name: 'b', updated_at: '2025-01-01T00:00:00Z' },
  );
  t.match(first, { created: true, rowsStaged: 3, rowsAdded: 2, rowCount: 2 }, 'within a batch, one row per key: the newest');
  t.equal(first.cursorMax && at(first.cursorMax), at('2025-01-02T00:00:00Z'), 'the cursor maximum comes back');

  const second = await dedup(
    { id: 1, name: 'a-late', updated_at: '2024-12-31T00:00:00Z' },
    { id: 2, name: 'b2', updated_at: '2025-01-03T00:00:00Z' },
    { id: 3, name: 'c', updated_at: '2025-01-03T00:00:00Z' },
  );
  t.match(second, { created: true, rowsAdded: 2, rowsRemoved: 1, rowCount: 3 });
  const dataset = await lake.readable('acme', ORDERS);
  const names = await tp.platform.core.withTenant('acme', async (trx) =>
    (await sql.raw<{ name: string }>(`${lake.asOf(dataset)} ORDER BY id`).execute(trx)).rows.map((row) => row.name));
  t.same(names, ['a-newer', 'b2', 'c'], 'the late row of key 1 did not replace the newer one');

  const again = await dedup({ id: 3, name: 'c', updated_at: '2025-01-03T00:00:00Z' });
  t.match(again, { created: false, rowsAdded: 0 }, 'a row already current changes nothing');
});

t.test('append adds every row; overwrite without a key replaces all unless identical; bad values become null and are counted', async (t) => {
  const { lake } = await lakePlatform(t);
  await lake.ensureDataset('acme', { datasetId: 'raw.acme.log', columns: [{ name: 'line', type: 'text' }, { name: 'n', type: 'bigint' }], producer: { kind: 'test', id: 't' } });
  const one = await lake.write('acme', 'raw.acme.log', { mode: 'append', source: records({ line: 'x', n: 1 }, { line: 'x', n: 1 }) });
  const two = await lake.write('acme', 'raw.acme.log', { mode: 'append', source: records({ line: 'x', n: 1 }) });
  t.match([one.rowsAdded, two.rowsAdded, two.rowCount], [2, 1, 3], 'append keeps duplicates');
  const same = await lake.write('acme', 'raw.acme.log', { mode: 'overwrite', source: records({ line: 'x', n: 1 }, { line: 'x', n: 1 }, { line: 'x', n: 1 }) });
  t.match(same, { created: false }, 'an identical multiset: no snapshot');
  const replaced = await lake.write('acme', 'raw.acme.log', { mode: 'overwrite', source: records({ line: 'tab\there', n: 'not a number' }, { line: 'y\\z', n: '12' }) });
  t.match(replaced, { created: true, rowsAdded: 2, rowsRemoved: 3, rowCount: 2, typeErrors: 1 });
  const empty = await lake.write('acme', 'raw.acme.log', { mode: 'overwrite', source: records() });
  t.match(empty, { created: true, rowsRemoved: 2, rowCount: 0 }, 'an empty overwrite empties the dataset');
  const refused = await lake.write('acme', 'raw.acme.log', { mode: 'append_dedup', source: records() }).catch((err) => err);
  t.equal(refused.output?.payload?.code, 'PRIMARY_KEY_REQUIRED');
});

t.test('a write from a query, and new columns added on the way; a write that fails leaves nothing', async (t) => {
  const { tp, lake } = await lakePlatform(t);
  await ordersDataset(lake);
  await lake.write('acme', ORDERS, { mode: 'overwrite', source: records({ id: 1, name: 'one', amount: 5 }, { id: 2, name: 'two', amount: 7 }) });
  const orders = await lake.readable('acme', ORDERS);
  await lake.ensureDataset('acme', {
    datasetId: 'derived.acme.totals', columns: [{ name: 'total', type: 'numeric' }, { name: 'orders', type: 'bigint' }], producer: { kind: 'transform', id: 'tx1' },
  });
  const totals = await lake.write('acme', 'derived.acme.totals', {
    mode: 'overwrite', source: { kind: 'query', sql: `SELECT sum(amount), count(*) FROM (${lake.asOf(orders)}) o WHERE amount > $1`, parameters: [1], properties: ['total', 'orders'] },
  });
  t.match(totals, { created: true, rowsAdded: 1 });
  const derived = await lake.readable('acme', 'derived.acme.totals');
  const { rows } = await tp.platform.core.withTenant('acme', (trx) => sql.raw<{ total: string; orders: string }>(lake.asOf(derived)).execute(trx));
  t.same(rows, [{ total: '12', orders: 2 }]);

  const grown = await lake.ensureDataset('acme', { datasetId: ORDERS, columns: [...orders.columns.map(({ name, type }) => ({ name, type: name === 'amount' ? 'bigint' as const : type })), { name: 'status', type: 'text' }], primaryKey: ['id'], producer: { kind: 'source_stream', id: 'test' } });
  t.same(grown.columns.map((c) => `${c.name}:${c.type}`), ['id:bigint', 'name:text', 'amount:text', 'updated_at:timestamptz', 'tags:jsonb', 'status:text'], 'a new column; a changed type widens to text');

  await t.rejects(lake.write('acme', ORDERS, { mode: 'overwrite', source: records({ id: 9 }) }, async () => {
    throw new Error('the caller\'s statements failed');
  }), /caller's statements failed/);
  const after = await lake.readable('acme', ORDERS);
  t.equal(after.latestSnapshotId, orders.latestSnapshotId, 'the failed write left no snapshot');
  t.equal(after.rowCount, 2);
});

t.test('retention keeps the newest snapshots and vacuums the row versions only older ones needed', async (t) => {
  const { tp, lake } = await lakePlatform(t, { PIPELINES_SNAPSHOT_RETENTION: '3' });
  await ordersDataset(lake);
  const ids: string[] = [];
  for (let n = 1; n <= 5; n++) {
    const result = await lake.write('acme', ORDERS, { mode: 'overwrite', source: records({ id: 1, name: `v${n}` }, { id: 2, name: 'stable' }) });
    ids.push(result.snapshotId!);
  }
  const snapshots = await tp.platform.core.withTenant('acme', (trx) => sql<{ id: string }>`SELECT snapshot_id::text AS id FROM lake_snapshots ORDER BY snapshot_id`.execute(trx));
  t.same(snapshots.rows.map((row) => row.id), ids.slice(2), 'the three newest snapshots are kept');
  const { rows } = await sql<{ name: string }>`SELECT name FROM raw."acme.orders" ORDER BY _snapshot_from, id`.execute(tp.platform.core.db);
  t.same(rows.map((row) => row.name), ['stable', 'v3', 'v4', 'v5'], 'versions visible at no kept snapshot are gone; the stable row is kept');
  const dataset = await lake.readable('acme', ORDERS);
  const oldest = await tp.platform.core.withTenant('acme', async (trx) => (await sql.raw<{ name: string }>(`${lake.asOf(dataset, ids[2])} ORDER BY id`).execute(trx)).rows.map((r) => r.name));
  t.same(oldest, ['v3', 'stable'], 'the oldest kept snapshot still reads whole');
});

t.test('lake tables: forced row-level security on _tenant_id, even for SQL that names another tenant\'s table', async (t) => {
  const { tp, lake } = await lakePlatform(t);
  await ordersDataset(lake);
  await lake.write('acme', ORDERS, { mode: 'overwrite', source: records({ id: 1, name: 'secret' }) });
  const { withTenant, pool } = tp.platform.core;
  const seen = await withTenant('beta', (trx) => sql<{ n: number }>`SELECT count(*)::int AS n FROM raw."acme.orders"`.execute(trx));
  t.equal(seen.rows[0].n, 0, 'beta naming acme\'s lake table sees no row');
  await t.rejects(withTenant('beta', (trx) => sql`INSERT INTO raw."acme.orders" (_snapshot_from, id) VALUES (1, 2)`.execute(trx)), /row-level security/, 'nor add rows to it, even its own-tagged ones');
  await t.rejects(withTenant('beta', (trx) => sql`CREATE TABLE raw.sneaky (x int)`.execute(trx)), /permission denied/, 'the tenant role creates no table');
  const write = await lake.write('beta', ORDERS, { mode: 'append', source: records({ id: 5 }) }).catch((err) => err);
  t.equal(write.output?.statusCode, 404, 'beta cannot write acme\'s dataset');
  const create = await lake.ensureDataset('beta', { datasetId: 'raw.acme.more', columns: [], producer: { kind: 'test', id: 't' } }).catch((err) => err);
  t.equal(create.output?.statusCode, 403, 'nor create one in acme\'s layer');

  const { rows } = await pool.query(`
    SELECT n.nspname || '.' || c.relname AS name, c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname IN ('raw', 'derived', 'registry', 'sandbox') AND c.relkind = 'r'`);
  t.ok(rows.length >= 1);
  for (const row of rows) t.ok(row.enabled && row.forced, `${row.name}: forced row-level security`);
  const events = await withTenant('acme', (trx) => sql<{ data: { dataset_id: string; snapshot_id: string } }>`SELECT data FROM events WHERE type = 'dataset.snapshot_created'`.execute(trx));
  t.equal(events.rows.length, 1, 'the write emitted dataset.snapshot_created');
  t.equal(events.rows[0].data.dataset_id, ORDERS);
});
