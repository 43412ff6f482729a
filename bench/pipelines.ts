// Pipelines benchmark: rows/s of a full-refresh sync of a PostgreSQL source
// table into the lake (through the API: a sync run on pg-boss, discovery's
// stream, COPY out of the source piped into the lake's staging COPY, then the
// set-based snapshot write), against the raw pipe between the same two
// databases measured in the same run: `COPY (SELECT ...) TO STDOUT` piped
// into `COPY ... FROM STDIN` of a plain table (target ratio >= 0.5). Then an
// incremental append-dedup sync of 1% changed rows, and dataset preview
// latency (p50, p95). Run with `npm run bench:pipelines` (a throwaway
// Postgres is started). BENCH_ROWS (1000000), BENCH_PREVIEWS (200) tune it.
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { createTestDatabase, startTestPlatform, tenantWithAdmin, until } from '../test/harness.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const PREVIEWS = Number(process.env.BENCH_PREVIEWS ?? 200);
const COLUMNS = 'id, name, amount, updated_at, tags';
const teardowns: (() => unknown)[] = [];
const tap = { teardown: (fn: () => unknown) => void teardowns.push(fn) };
const round = (n: number, digits = 1) => Number(n.toFixed(digits));

async function connect(url: string) {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  teardowns.push(() => client.end());
  return client;
}

/** The raw pipe: COPY out of the source straight into COPY in of a plain table, nothing in between. */
async function rawPipe(sourceUrl: string, targetUrl: string): Promise<number> {
  const source = await connect(sourceUrl);
  const target = await connect(targetUrl);
  await target.query(`DROP TABLE IF EXISTS bench_baseline; CREATE TABLE bench_baseline (id bigint, name text, amount numeric, updated_at timestamptz, tags jsonb)`);
  const start = performance.now();
  await target.query('BEGIN');
  await pipeline(source.query(copyTo(`COPY (SELECT ${COLUMNS} FROM orders) TO STDOUT`)), target.query(copyFrom(`COPY bench_baseline (${COLUMNS}) FROM STDIN`)));
  await target.query('COMMIT');
  return (performance.now() - start) / 1000;
}

try {
  const started = performance.now();
  const tp = await startTestPlatform(tap, { env: { PIPELINES_ALLOW_PRIVATE_NETWORKS: 'true', LOG_LEVEL: 'silent' } });
  await tp.platform.start();
  const { token } = await tenantWithAdmin(tp, 'bench');
  const api = async (method: string, url: string, payload?: unknown) => {
    const response = await tp.request({ method, url, token, tenant: 'bench', payload });
    if (response.status >= 400) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const sourceUrl = await createTestDatabase(tap);
  const upstream = await connect(sourceUrl);
  await upstream.query(`CREATE TABLE orders (id bigint PRIMARY KEY, name text, amount numeric(12,2), updated_at timestamptz NOT NULL, tags jsonb);
    INSERT INTO orders SELECT g, 'order number ' || g, (g % 100000) / 100.0, timestamptz '2024-01-01' + g * interval '1 second',
      CASE WHEN g % 10 = 0 THEN jsonb_build_array('tag', g % 7) END FROM generate_series(1, ${ROWS}) g;
    ANALYZE orders`);
  const parsed = new URL(sourceUrl);
  const source = await api('POST', '/api/v1/sources', {
    name: 'shop', pattern_id: 'postgres', source_config: { host: parsed.hostname, port: Number(parsed.port), database: parsed.pathname.slice(1), user: 'postgres' },
  });
  const discovery = await api('POST', '/api/v1/sources/discover', { source_id: source.id, apply: true });
  await until(async () => (await api('GET', `/api/v1/sources/discover/status/${discovery.workflow_id}`)).status === 'succeeded', 'discovery', 60_000);
  const stream = (await api('GET', `/api/v1/sources/${source.id}/streams`)).items[0];

  const syncSeconds = async (body?: object) => {
    const start = performance.now();
    await api('POST', `/api/v1/sources/${source.id}/sync`, body);
    const run = await until(async () => {
      const status = await api('GET', `/api/v1/sources/${source.id}/sync/status`);
      return status.run?.is_terminal ? status.run : undefined;
    }, 'the sync', 3_600_000);
    if (run.status !== 'succeeded') throw new Error(`sync ${run.status}: ${run.error}`);
    const ms = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 1000;
    return { seconds: (performance.now() - start) / 1000, run, queued: ms(run.created_at, run.started_at), running: ms(run.started_at, run.finished_at) };
  };

  const baseline = await rawPipe(sourceUrl, tp.databaseUrl);
  const full = await syncSeconds();
  const baselineAgain = await rawPipe(sourceUrl, tp.databaseUrl);
  const pipeSeconds = Math.min(baseline, baselineAgain);

  // Incremental append-dedup by updated_at: one sync to set the cursor, then 1% of the rows change.
  await api('PATCH', `/api/v1/sources/${source.id}/streams/${stream.id}`, { sync_mode: 'incremental', cursor_field: 'updated_at', write_mode: 'append_dedup' });
  await syncSeconds();
  const changed = Math.max(1, Math.floor(ROWS / 100));
  await upstream.query(`UPDATE orders SET name = name || ' (changed)', updated_at = now() WHERE id % 100 = 0 AND id <= ${changed * 100}`);
  const incremental = await syncSeconds();

  const latencies: number[] = [];
  for (let i = 0; i < PREVIEWS; i++) {
    const start = performance.now();
    await api('GET', `/api/v1/datasets/${stream.destination}/preview?limit=100&offset=${(i * 997) % 10_000}`);
    latencies.push(performance.now() - start);
  }
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!, 2);

  console.log(`pipelines benchmark: ${ROWS} source rows (bigint, text, numeric, timestamptz, jsonb), loopback PostgreSQL`);
  console.log(`1. full refresh through the API (POST sync to run succeeded): ${round(full.seconds, 2)} s, ${Math.round(ROWS / full.seconds)} rows/s`);
  console.log(`   of which waiting for a worker ${round(full.queued, 2)} s, the run itself ${round(full.running, 2)} s (${Math.round(ROWS / full.running)} rows/s)`);
  console.log(`   baseline raw COPY pipe between the same databases: ${round(pipeSeconds, 2)} s (best of 2), ${Math.round(ROWS / pipeSeconds)} rows/s`);
  console.log(`   ratio sync/raw pipe: ${round(pipeSeconds / full.seconds, 2)} (target >= 0.5)`);
  console.log(`2. incremental append-dedup, ${changed} changed rows (1%): ${round(incremental.seconds, 2)} s; rows read ${incremental.run.rows_read}, added ${incremental.run.rows_added}, superseded ${incremental.run.rows_removed}; waiting ${round(incremental.queued, 2)} s, running ${round(incremental.running, 2)} s`);
  console.log(`3. dataset preview (100 rows, ${PREVIEWS} requests, in-process inject): p50 ${pct(50)} ms, p95 ${pct(95)} ms`);
  console.log(`total ${round((performance.now() - started) / 1000)} s`);
} finally {
  for (const fn of teardowns.reverse()) await fn();
}
