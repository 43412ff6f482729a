// Sync runs that go wrong: a failing stream is retried alone (what committed
// stays committed) and the run ends partial; the private-network guard; one
// run of a source at a time; roles.
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { sourcesPlatform, upstreamDatabase, userToken } from './helpers.ts';

const SECRET = 'another-secret-password-value';

t.test('a failing stream is retried alone; the run ends partial, with the upstream error in its log and no secret anywhere', async (t) => {
  const { tp, asAcme } = await sourcesPlatform(t, { PIPELINES_SYNC_RETRY_LIMIT: '1' }, { captureLogs: true, workers: true });
  const upstream = await upstreamDatabase(t);
  await upstream.client.query(`CREATE TABLE orders (id bigint PRIMARY KEY, name text); INSERT INTO orders VALUES (1, 'a'), (2, 'b'), (3, 'c')`);
  const sourceId = (await asAcme('POST', '/api/v1/sources', { name: 'shop', pattern_id: 'postgres', source_config: upstream.config, credential_values: { password: SECRET }, credential_name: 'shop' })).body.id;
  const schema = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } };
  t.equal((await asAcme('POST', `/api/v1/sources/${sourceId}/streams`, { name: 'orders', namespace: 'public', schema, primary_key: ['id'] })).status, 201);
  t.equal((await asAcme('POST', `/api/v1/sources/${sourceId}/streams`, { name: 'ghost', namespace: 'public', schema })).status, 201);

  const sync = await asAcme('POST', `/api/v1/sources/${sourceId}/sync`);
  const run = await until(async () => {
    const status = (await asAcme('GET', `/api/v1/sources/${sourceId}/sync/status`)).body;
    return status.run?.is_terminal ? status.run : undefined;
  }, 'the run to settle', 60_000);
  t.match(run, { id: sync.body.id, status: 'partial', attempts: 2, rows_read: 3, rows_added: 3 }, 'orders committed once, in the first attempt');
  t.match(run.error, /1 stream\(s\) failed: ghost/);
  const byName = Object.fromEntries(run.streams.map((s: { stream_name: string }) => [s.stream_name, s]));
  t.match(byName.orders, { status: 'succeeded', rows_read: 3 });
  t.match(byName.ghost, { status: 'failed', error: /relation "public.ghost" does not exist/ });
  const logs = (await asAcme('GET', `/api/v1/sources/${sourceId}/runs/${run.id}/logs`)).body.items.map((l: { message: string }) => l.message);
  t.ok(logs.includes('attempt 2: 1 stream(s) to sync, 1 already committed'), 'the retry redid only the failed stream');
  t.ok(logs.some((m: string) => /stream ghost failed: relation "public.ghost" does not exist/.test(m)));
  t.equal((await asAcme('GET', '/api/v1/datasets/raw.acme.shop_orders')).body.row_count, 3);
  t.equal((await asAcme('GET', `/api/v1/sources/${sourceId}`)).body.state, 'active');
  t.notOk(tp.logs.some((line) => line.includes(SECRET)), 'no log line carries the credential value');
  t.notOk(JSON.stringify(run).includes(SECRET));
  const events = (await asAcme('GET', '/api/admin/triggers/events/recent?type=source.sync.completed')).body.items;
  t.match(events, [{ type: 'source.sync.completed', source: '/pipelines/sources', data: {
    source_id: sourceId, source_name: 'shop', sync_run_id: run.id, status: 'partial', trigger: 'manual', rows_added: 3,
    streams: [{ name: 'ghost', status: 'failed' }, { name: 'orders', status: 'succeeded', destination: 'raw.acme.shop_orders' }],
  } }], 'the outcome is an event (one, for the settled run)');
});

t.test('the private-network guard: without PIPELINES_ALLOW_PRIVATE_NETWORKS a loopback source is refused', async (t) => {
  const { asAcme } = await sourcesPlatform(t, { PIPELINES_ALLOW_PRIVATE_NETWORKS: 'false', PIPELINES_SYNC_RETRY_LIMIT: '0' }, { workers: true });
  const upstream = await upstreamDatabase(t);
  const sourceId = (await asAcme('POST', '/api/v1/sources', { name: 'shop', pattern_id: 'postgres', source_config: upstream.config })).body.id;
  const started = await asAcme('POST', '/api/v1/sources/discover', { source_id: sourceId });
  const discovery = await until(async () => {
    const status = (await asAcme('GET', `/api/v1/sources/discover/status/${started.body.workflow_id}`)).body;
    return status.status === 'failed' || status.status === 'succeeded' ? status : undefined;
  }, 'discovery', 60_000);
  t.equal(discovery.status, 'failed');
  t.match(discovery.error, /private or loopback address \(PIPELINES_ALLOW_PRIVATE_NETWORKS is off\)/);
  t.equal(discovery.streams, null);
  await asAcme('POST', `/api/v1/sources/${sourceId}/streams`, { name: 'orders', schema: { type: 'object', properties: { id: { type: 'integer' } } } });
  await asAcme('POST', `/api/v1/sources/${sourceId}/sync`);
  const run = await until(async () => {
    const status = (await asAcme('GET', `/api/v1/sources/${sourceId}/sync/status`)).body;
    return status.run?.is_terminal ? status.run : undefined;
  }, 'the run to settle', 60_000);
  t.equal(run.status, 'failed');
  t.match(run.streams[0].error, /private or loopback/);
  t.equal((await asAcme('GET', `/api/v1/sources/${sourceId}`)).body.state, 'ready', 'never synced: still ready');
});

t.test('one run of a source at a time; editors start syncs and discoveries, members read', async (t) => {
  const { tp, asAcme, asBeta } = await sourcesPlatform(t);
  const sourceId = (await asAcme('POST', '/api/v1/sources', { name: 'shop', pattern_id: 'postgres', source_config: { host: '127.0.0.1', database: 'x', user: 'y' } })).body.id;
  const reader = await userToken(tp, 'reader', ['acme']);
  const asReader = (method: string, url: string, payload?: unknown) => tp.request({ method, url, token: reader, tenant: 'acme', payload });
  t.equal((await asReader('POST', `/api/v1/sources/${sourceId}/sync`)).status, 403);
  t.equal((await asReader('POST', '/api/v1/sources/discover', { source_id: sourceId })).status, 403);
  t.equal((await asAcme('POST', `/api/v1/sources/${sourceId}/sync`)).body.code, 'NO_ENABLED_STREAMS', 'no stream yet: nothing to sync');
  await asAcme('POST', `/api/v1/sources/${sourceId}/streams`, { name: 'orders', schema: { type: 'object', properties: { id: { type: 'integer' } } } });
  // Workers are off here: the run stays queued.
  const first = await asAcme('POST', `/api/v1/sources/${sourceId}/sync`);
  t.equal(first.status, 202);
  t.match(first.body.workflow_id, /^[0-9a-f-]{36}$/);
  const second = await asAcme('POST', `/api/v1/sources/${sourceId}/sync`);
  t.equal(second.status, 409);
  t.equal(second.body.code, 'SYNC_IN_PROGRESS');
  const status = await asReader('GET', `/api/v1/sources/${sourceId}/sync/status`);
  t.match(status.body, { running: true, source_state: 'ready', run: { id: first.body.id, status: 'queued' } });
  t.equal((await asReader('GET', `/api/v1/sources/${sourceId}/sync-history`)).body.items.length, 1);
  t.equal((await asBeta('POST', `/api/v1/sources/${sourceId}/sync`)).status, 404, 'another tenant\'s source');
  t.equal((await asBeta('POST', '/api/v1/sources/discover', { source_id: sourceId })).status, 404);
  t.equal((await asAcme('GET', `/api/v1/sources/${sourceId}/runs/00000000-0000-4000-8000-000000000000/logs`)).status, 404);
  t.equal((await asAcme('GET', '/api/v1/sources/sync-runs/not-a-uuid/streams')).status, 400);
});

t.test('a run whose credentials cannot be opened fails whole and counts as a bootstrap capture failure', async (t) => {
  const { tp, asAcme } = await sourcesPlatform(t, { PIPELINES_SYNC_RETRY_LIMIT: '0' }, { workers: true });
  const sourceId = (await asAcme('POST', '/api/v1/sources', { name: 'shop', pattern_id: 'postgres', source_config: { host: '127.0.0.1', database: 'x', user: 'y' }, credential_values: { password: SECRET }, credential_name: 'c' })).body.id;
  await asAcme('POST', `/api/v1/sources/${sourceId}/streams`, { name: 'orders', schema: { type: 'object', properties: { id: { type: 'integer' } } } });
  // A sealed value moved to another version no longer opens (the additional data binds the version).
  await tp.platform.core.pool.query(`UPDATE pipeline_credentials SET version = version + 1`);
  await asAcme('POST', `/api/v1/sources/${sourceId}/sync`);
  const run = await until(async () => {
    const status = (await asAcme('GET', `/api/v1/sources/${sourceId}/sync/status`)).body;
    return status.run?.is_terminal ? status.run : undefined;
  }, 'the run to settle', 60_000);
  t.equal(run.status, 'failed');
  t.ok(run.error);
  t.notOk(run.error.includes(SECRET));
  const metrics = (await tp.request({ url: '/api/v1/metrics' })).body as string;
  t.match(metrics, /service_orchestration_window_worker_bootstrap_timing_capture_failures\{window="manual",job_name="pipelines.sync"\} 1/);
  t.match(metrics, /phase_seconds_count\{window="manual",job_name="pipelines.sync",phase="queue_to_attempt_start"\} 1/);
  t.notMatch(metrics, /phase="attempt_start_to_source_ready"/, 'a phase that did not complete is missing, not zero');
  const failed = (await asAcme('GET', '/api/admin/triggers/events/recent?type=source.sync.failed')).body.items;
  t.match(failed, [{ data: { sync_run_id: run.id, status: 'failed' } }]);
  t.notOk(JSON.stringify(failed).includes(SECRET));
});
