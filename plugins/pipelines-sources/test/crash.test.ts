// A worker killed mid-sync (a child process running the platform, SIGKILL
// while its COPY from the source is in flight): nothing of the attempt
// committed, pg-boss retries it in another process once its heartbeat stops,
// and the dataset ends with every row exactly once, even in append mode.
// Runs in its own process: it kills and restarts platform processes; a leak would hold a shared one.
import { spawn } from 'node:child_process';
import t from 'tap';
import { ROOT_DIR } from '../../../core/paths.ts';
import { startTestPlatform, until } from 'agent-platform/sdk/testing';
import { sourcesPlatform, upstreamDatabase } from './helpers.ts';

const ROWS = 2000;

t.test('a sync killed mid-stream is retried elsewhere; no row lost or doubled', async (t) => {
  const { tp, acme, asAcme } = await sourcesPlatform(t);
  const upstream = await upstreamDatabase(t);
  // A view that reads slowly (1 ms a row): the COPY is surely in flight when the worker dies.
  await upstream.client.query(`
    CREATE TABLE orders (id bigint PRIMARY KEY, name text);
    INSERT INTO orders SELECT g, 'order ' || g FROM generate_series(1, ${ROWS}) g;
    CREATE VIEW slow_orders AS SELECT o.id, o.name FROM orders o WHERE pg_sleep(0.001)::text = ''`);
  const sourceId = (await asAcme('POST', '/api/v1/sources', { name: 'shop', pattern_id: 'postgres', source_config: upstream.config })).body.id;
  const stream = await asAcme('POST', `/api/v1/sources/${sourceId}/streams`, {
    name: 'slow_orders', namespace: 'public', schema: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } }, write_mode: 'append',
  });
  t.equal(stream.status, 201);

  const child = spawn(process.execPath, ['core/cli/bin.ts', 'serve'], {
    cwd: ROOT_DIR, env: { ...tp.env, PORT: '0', LOG_LEVEL: 'silent', JOBS_POLL_INTERVAL_MS: '100' }, stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const run = (await asAcme('POST', `/api/v1/sources/${sourceId}/sync`)).body;
  await until(async () => (await upstream.client.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query LIKE 'COPY (SELECT%'`)).rowCount,
    'the child to be reading the source', 60_000);
  child.kill('SIGKILL');
  await exited;
  const during = (await asAcme('GET', `/api/v1/sources/sync-runs/${run.id}/streams`)).body.items[0];
  t.match(during, { status: 'pending', rows_read: 0 }, 'nothing of the killed attempt committed');

  const next = await startTestPlatform(t, { databaseUrl: tp.databaseUrl, env: { ...tp.env, JOBS_SUPERVISE_INTERVAL_SECONDS: '1' } });
  await next.platform.start();
  const as = (url: string) => next.request({ url, token: acme.token, tenant: 'acme' });
  const settled = await until(async () => {
    const status = (await as(`/api/v1/sources/${sourceId}/sync/status`)).body;
    return status.run?.is_terminal ? status.run : undefined;
  }, 'the retry in the new process to finish', 90_000);
  t.match(settled, { id: run.id, status: 'succeeded', attempts: 2, rows_read: ROWS, rows_added: ROWS });
  const dataset = (await as('/api/v1/datasets/raw.acme.shop_slow_orders')).body;
  t.equal(dataset.row_count, ROWS, 'every row once');
  t.equal(dataset.snapshot_count, 1, 'one snapshot: the killed attempt left none');
  const logs = (await as(`/api/v1/sources/${sourceId}/runs/${run.id}/logs`)).body.items.map((l: { message: string }) => l.message);
  t.ok(logs.includes('attempt 2: 1 stream(s) to sync, 0 already committed'));
});
