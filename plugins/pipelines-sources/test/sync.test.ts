// Discovery and sync runs from a PostgreSQL source (another database on the
// test cluster) into the lake: full refresh and incremental append-dedup,
// the run records (status, history, stats, logs, streams, details, refs),
// failures per stream, the private-network guard, and no credential value in
// any log.
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { sourcesPlatform, upstreamDatabase } from './helpers.ts';

const SECRET = 'pg-password-that-must-not-leak';

async function seed(client: { query(text: string): Promise<unknown> }) {
  await client.query(`
    CREATE TABLE orders (id bigint PRIMARY KEY, name text, amount numeric(10,2), updated_at timestamptz NOT NULL, tags jsonb);
    INSERT INTO orders VALUES
      (1, 'one', 1.10, '2024-01-01T00:00:00Z', '["a"]'),
      (2, 'two', 2.20, '2024-01-02T00:00:00Z', null),
      (9007199254740993, 'big', 3.30, '2024-01-03T00:00:00Z', '{"k": 1}');
    CREATE SCHEMA sales;
    CREATE TABLE sales.items (sku text PRIMARY KEY, qty integer, stamp timestamp);
    INSERT INTO sales.items VALUES ('a', 1, '2024-05-01 10:00:00'), ('b', 2, NULL);`);
}

type Request = (method: string, url: string, payload?: unknown) => Promise<{ status: number; body: any }>;

async function finishedRun(request: Request, sourceId: string) {
  return until(async () => {
    const status = (await request('GET', `/api/v1/sources/${sourceId}/sync/status`)).body;
    return status.run?.is_terminal ? status.run : undefined;
  }, 'the sync run to finish', 60_000);
}

t.test('discover, then full refresh and incremental syncs land the source in the lake; the run records tell what happened', async (t) => {
  const { tp, acme, asAcme, asBeta } = await sourcesPlatform(t, {}, { captureLogs: true, workers: true });
  const upstream = await upstreamDatabase(t);
  await seed(upstream.client);
  const source = await asAcme('POST', '/api/v1/sources', { name: 'shop', pattern_id: 'postgres', source_config: upstream.config, credential_values: { password: SECRET }, credential_name: 'shop' });
  t.equal(source.status, 201);
  const sourceId = source.body.id;

  const started = await asAcme('POST', '/api/v1/sources/discover', { source_id: sourceId, apply: true });
  t.equal(started.status, 202);
  const discovery = await until(async () => {
    const status = (await asAcme('GET', `/api/v1/sources/discover/status/${started.body.workflow_id}`)).body;
    return status.status === 'succeeded' || status.status === 'failed' ? status : undefined;
  }, 'discovery', 60_000);
  t.equal(discovery.status, 'succeeded', discovery.error ?? '');
  t.same(discovery.streams.map((s: { namespace: string; name: string }) => `${s.namespace}.${s.name}`).sort(), ['public.orders', 'sales.items']);
  t.equal((await asBeta('GET', `/api/v1/sources/discover/status/${started.body.workflow_id}`)).status, 404, 'another tenant does not see it');

  const streams = (await asAcme('GET', `/api/v1/sources/${sourceId}/streams`)).body.items;
  const orders = streams.find((s: { name: string }) => s.name === 'orders');
  t.match(orders, { namespace: 'public', primary_key: ['id'], supported_sync_modes: ['full_refresh', 'incremental'], destination: 'raw.acme.shop_orders' });
  t.same(orders.schema.properties.updated_at, { type: ['null', 'string'], format: 'date-time' });
  t.equal(streams.find((s: { name: string }) => s.name === 'items').destination, 'raw.acme.shop_sales_items');

  // First sync: both streams, full refresh.
  const sync = await asAcme('POST', `/api/v1/sources/${sourceId}/sync`);
  t.equal(sync.status, 202);
  t.match(sync.body, { status: 'queued', is_terminal: false });
  const first = await finishedRun(asAcme, sourceId);
  t.equal(first.status, 'succeeded', first.error ?? '');
  t.match(first, { rows_read: 5, rows_added: 5, workflow_id: sync.body.workflow_id });
  t.equal((await asAcme('GET', `/api/v1/sources/${sourceId}`)).body.state, 'active', 'a synced source is active');
  const preview = await asAcme('GET', '/api/v1/datasets/raw.acme.shop_orders/preview');
  t.same(preview.body.rows.map((r: { id: unknown; name: string; amount: string }) => [r.id, r.name, r.amount]).sort(),
    [[1, 'one', '1.10'], [2, 'two', '2.20'], ['9007199254740993', 'big', '3.30']]);
  const items = await asAcme('GET', '/api/v1/datasets/raw.acme.shop_sales_items/preview');
  t.same(items.body.rows.map((r: { sku: string; stamp: string | null }) => [r.sku, r.stamp]).sort(), [['a', '2024-05-01T10:00:00.000Z'], ['b', null]], 'a timestamp without zone is read as UTC');

  // Incremental append-dedup of orders by its cursor: one change, one new row.
  const patched = await asAcme('PATCH', `/api/v1/sources/${sourceId}/streams/${orders.id}`, { sync_mode: 'incremental', cursor_field: 'updated_at', write_mode: 'append_dedup' });
  t.equal(patched.status, 200);
  await upstream.client.query(`UPDATE orders SET name = 'TWO', updated_at = '2024-02-01T00:00:00Z' WHERE id = 2;
    INSERT INTO orders VALUES (4, 'four', 4.40, '2024-02-02T00:00:00Z', null)`);
  t.equal((await asAcme('POST', `/api/v1/sources/${sourceId}/sync`, { streams: ['orders'] })).status, 202);
  const second = await finishedRun(asAcme, sourceId);
  t.equal(second.status, 'succeeded', second.error ?? '');
  const secondStreams = (await asAcme('GET', `/api/v1/sources/sync-runs/${second.id}/streams`)).body.items;
  t.equal(secondStreams.length, 1, 'only the stream asked for');
  t.match(secondStreams[0], { stream_name: 'orders', status: 'succeeded', rows_read: 4, rows_added: 2, rows_removed: 1, cursor_before: null },
    'no cursor yet: every row read; the changed one makes a new version, the new one is added');
  t.match(secondStreams[0].cursor_after, /^2024-02-02 00:00:00/);
  const after = await asAcme('GET', '/api/v1/datasets/raw.acme.shop_orders/preview');
  t.same(after.body.rows.map((r: { id: unknown; name: string }) => [String(r.id), r.name]).sort(), [['1', 'one'], ['2', 'TWO'], ['4', 'four'], ['9007199254740993', 'big']]);
  const stream = (await asAcme('GET', `/api/v1/sources/${sourceId}/streams`)).body.items.find((s: { name: string }) => s.name === 'orders');
  t.match(stream.state, { cursor: secondStreams[0].cursor_after, last_run_id: second.id, last_snapshot_id: secondStreams[0].snapshot_id_exact }, 'the runtime state holds the committed cursor');

  // From the committed cursor (inclusive: the boundary row is read again and deduplicated).
  await upstream.client.query(`UPDATE orders SET name = 'ONE', updated_at = '2024-03-01T00:00:00Z' WHERE id = 1`);
  await asAcme('POST', `/api/v1/sources/${sourceId}/sync`, { streams: ['orders'] });
  const third = await finishedRun(asAcme, sourceId);
  const thirdStream = (await asAcme('GET', `/api/v1/sources/sync-runs/${third.id}/streams`)).body.items[0];
  t.match(thirdStream, { rows_read: 2, rows_added: 1, rows_removed: 1, cursor_before: secondStreams[0].cursor_after, snapshot_created: true });
  t.same((await asAcme('GET', '/api/v1/datasets/raw.acme.shop_orders/preview')).body.rows.map((r: { id: unknown; name: string }) => [String(r.id), r.name]).sort(),
    [['1', 'ONE'], ['2', 'TWO'], ['4', 'four'], ['9007199254740993', 'big']]);

  // Without changes: the boundary row only, no new snapshot.
  await asAcme('POST', `/api/v1/sources/${sourceId}/sync`, { streams: ['orders'] });
  const fourth = await finishedRun(asAcme, sourceId);
  const fourthStream = (await asAcme('GET', `/api/v1/sources/sync-runs/${fourth.id}/streams`)).body.items[0];
  t.match(fourthStream, { rows_read: 1, rows_added: 0, snapshot_created: false, snapshot_id: thirdStream.snapshot_id });

  const history = await asAcme('GET', `/api/v1/sources/${sourceId}/sync-history`);
  t.same(history.body.items.map((r: { id: string }) => r.id), [fourth.id, third.id, second.id, first.id], 'newest first');
  const stats = await asAcme('GET', `/api/v1/sources/${sourceId}/sync-history/stats`);
  t.match(stats.body, { total: 4, succeeded: 4, failed: 0, running: 0, rows_read: 12 });
  const details = await asAcme('GET', `/api/v1/sources/sync-runs/${sync.body.workflow_id}/details`);
  t.equal(details.body.id, first.id);
  t.equal(details.body.streams.length, 2);
  const refs = await asAcme('GET', `/api/v1/sources/${sourceId}/iceberg-refs`);
  t.same(refs.body.items.map((r: { table: string; snapshot_id_exact: string }) => [r.table, r.snapshot_id_exact]).sort(),
    [['raw.acme.shop_orders', thirdStream.snapshot_id], ['raw.acme.shop_sales_items', details.body.streams.find((s: { stream_name: string }) => s.stream_name === 'items').snapshot_id]]);
  const logs = await asAcme('GET', `/api/v1/sources/${sourceId}/runs/${second.id}/logs`);
  t.ok(logs.body.items.some((l: { message: string }) => /stream orders: read 4 row\(s\), added 2, removed 1; snapshot \d+/.test(l.message)));
  const download = await tp.platform.server.inject({ url: `/api/v1/sources/${sourceId}/runs/${second.id}/logs/download`, headers: { authorization: `Bearer ${acme.token}`, 'x-tenant-id': 'acme' } });
  t.equal(download.statusCode, 200);
  t.match(download.headers['content-type'], /^text\/plain/);
  t.match(download.headers['content-disposition'], /attachment/);
  t.match(download.payload, /INFO stream orders: read 4 row\(s\)/);

  const metrics = (await tp.request({ url: '/api/v1/metrics' })).body as string;
  for (const phase of ['queue_to_attempt_start', 'attempt_start_to_source_ready', 'source_ready_to_streams_done', 'streams_done_to_settled']) {
    t.match(metrics, new RegExp(`service_orchestration_window_phase_seconds_count\\{window="manual",job_name="pipelines.sync",phase="${phase}"\\} 4`), `${phase}: one observation per run`);
    t.match(metrics, new RegExp(`service_orchestration_window_phase_seconds_max\\{window="manual",job_name="pipelines.sync",phase="${phase}"\\} `));
  }
  t.notMatch(metrics, /phase="worker_entrypoint_to_python_startup_hook"/, 'phases our runner does not have are absent, not zero');
  t.notMatch(metrics, /service_orchestration_window_worker_bootstrap_timing_capture_failures\{/, 'every run had a complete report');

  t.equal((await asBeta('GET', `/api/v1/sources/sync-runs/${first.id}/streams`)).status, 404, 'runs are the tenant\'s own');
  t.equal((await asBeta('GET', `/api/v1/sources/sync-runs/${sync.body.workflow_id}/details`)).status, 404);
  t.notOk(tp.logs.some((line) => line.includes(SECRET)), 'no log line carries the credential value');
});
