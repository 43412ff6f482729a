// api.materialize: tenant SQL lands in a derived (or sandbox) dataset as one
// snapshot, as the tenant role; another tenant's rows stay invisible; the
// row cap, the statement timeout, parameters and incremental upserts.
import t from 'tap';
import { transformsPlatform } from './helpers.ts';

const producer = { kind: 'transform' as const, id: 'test' };

t.test('materialize: a table, then an incremental upsert by key; sample rows and columns', async (t) => {
  const { api, lake } = await transformsPlatform(t);
  const result = await api.materialize('acme', {
    sql: 'SELECT customer, sum(amount) AS total, count(*) AS n FROM raw.acme.orders WHERE amount >= $1 GROUP BY customer ORDER BY customer',
    parameters: { min_amount: { type: 'number', default: 0 } }, namespace: 'derived', table: 'totals', materialization: 'table', producer,
  });
  t.equal(result.datasetId, 'derived.acme.totals');
  t.equal(result.rows, 2);
  t.ok(result.snapshotId && /^\d+$/.test(result.snapshotId));
  t.same(result.columns, [{ name: 'customer', type: 'text' }, { name: 'total', type: 'numeric' }, { name: 'n', type: 'bigint' }]);
  t.same(result.sampleRows.map((r) => [r.customer, String(r.total)]).sort(), [['ann', '17.50'], ['bob', '3']]);
  const info = await lake.readable('acme', 'derived.acme.totals');
  t.equal(info.rowCount, 2);
  t.equal(info.producer.kind, 'transform');

  // Incremental: keys not in the batch stay; a changed key is replaced.
  await api.materialize('acme', { sql: "SELECT id, customer FROM raw.acme.orders WHERE id <= 2", namespace: 'derived', table: 'customers', materialization: 'incremental', uniqueKey: ['id'], producer });
  const second = await api.materialize('acme', { sql: "SELECT 2::bigint AS id, 'robert' AS customer UNION ALL SELECT 9, 'zed'", namespace: 'derived', table: 'customers', materialization: 'incremental', uniqueKey: ['id'], producer });
  const rows = await api.materialize('acme', { sql: 'SELECT id, customer FROM derived.acme.customers ORDER BY id', namespace: 'sandbox', table: 'check', materialization: 'table', producer });
  t.same(rows.sampleRows.map((r) => [Number(r.id), r.customer]), [[1, 'ann'], [2, 'robert'], [9, 'zed']]);
  t.equal(second.rows, 2);
});

t.test('materialize: SQL naming another tenant\'s table sees nothing of it, and the read rule refuses it as a dataset', async (t) => {
  const { api, lake } = await transformsPlatform(t);
  await t.rejects(api.materialize('acme', { sql: 'SELECT id FROM raw.beta.orders', namespace: 'derived', table: 'stolen', materialization: 'table', producer }),
    { output: { statusCode: 400, payload: { code: 'DATASET_FORBIDDEN' } } } as never);
  // Its physical table is not a dataset id: refused before it runs.
  await t.rejects(api.materialize('acme', { sql: 'SELECT * FROM raw."beta.orders"', namespace: 'derived', table: 'stolen', materialization: 'table', producer }),
    { output: { statusCode: 400, payload: { code: 'SQL_RELATION_NOT_DATASET' } } } as never);
  // And were it to run (the layer under the analysis: the SELECT runs as the tenant role under forced RLS), it sees no row.
  await lake.ensureDataset('acme', { datasetId: 'derived.acme.stolen', columns: [{ name: 'id', type: 'bigint' }, { name: 'customer', type: 'text' }], producer });
  const written = await lake.write('acme', 'derived.acme.stolen', { mode: 'overwrite', source: { kind: 'query', sql: 'SELECT id, customer FROM raw."beta.orders"', properties: ['id', 'customer'] } });
  t.equal(written.rowsStaged, 0, 'beta\'s rows are invisible to acme');
  const own = await lake.write('beta', 'raw.beta.orders', { mode: 'append', source: { kind: 'query', sql: 'SELECT id + 1000, customer, amount FROM raw."beta.orders"', properties: ['id', 'customer', 'amount'] } });
  t.equal(own.rowsStaged, 1, 'the same SQL as beta sees beta\'s row (the test can fail)');
});

t.test('materialize: row cap, statement timeout, refused SQL, bad keys', async (t) => {
  const { api } = await transformsPlatform(t, { PIPELINES_TRANSFORM_MAX_ROWS: '5', PIPELINES_TRANSFORM_STATEMENT_TIMEOUT_MS: '300' });
  await t.rejects(api.materialize('acme', { sql: 'SELECT g AS n FROM generate_series(1, 6) AS g', namespace: 'derived', table: 'six', materialization: 'table', producer }),
    { output: { statusCode: 400, payload: { code: 'TRANSFORM_ROW_LIMIT' } } } as never);
  const capped = await api.materialize('acme', { sql: 'SELECT g AS n FROM generate_series(1, 6) AS g', namespace: 'sandbox', table: 'six', materialization: 'table', rowLimit: 3, producer });
  t.equal(capped.rows, 3, 'a caller\'s rowLimit truncates');
  await t.rejects(api.materialize('acme', {
    sql: 'SELECT count(*) AS n FROM generate_series(1, 100000) a, generate_series(1, 100000) b', namespace: 'derived', table: 'slow', materialization: 'table', producer,
  }), { output: { statusCode: 400, payload: { code: 'TRANSFORM_STATEMENT_TIMEOUT' } } } as never);
  await t.rejects(api.materialize('acme', { sql: "SELECT pg_read_file('/etc/passwd') AS f", namespace: 'derived', table: 'x', materialization: 'table', producer }),
    { output: { statusCode: 400, payload: { code: 'SQL_FUNCTION_NOT_ALLOWED' } } } as never);
  await t.rejects(api.materialize('acme', { sql: 'SELECT 1 AS a, 2 AS a', namespace: 'derived', table: 'x', materialization: 'table', producer }),
    { output: { payload: { code: 'SQL_DUPLICATE_COLUMN' } } } as never);
  await t.rejects(api.materialize('acme', { sql: 'SELECT 1 AS a', namespace: 'derived', table: 'x', materialization: 'incremental', producer }),
    { output: { payload: { code: 'UNIQUE_KEY_REQUIRED' } } } as never);
});

t.test('materialize: an AbortSignal cancels the running statement', async (t) => {
  const { api } = await transformsPlatform(t);
  const controller = new AbortController();
  const running = api.materialize('acme', {
    sql: 'SELECT count(*) AS n FROM generate_series(1, 100000) a, generate_series(1, 100000) b', namespace: 'derived', table: 'slow', materialization: 'table', producer, signal: controller.signal,
  });
  setTimeout(() => controller.abort(), 500);
  await t.rejects(running, { output: { statusCode: 409, payload: { code: 'TRANSFORM_CANCELLED' } } } as never);
});
