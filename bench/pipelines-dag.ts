// Pipeline DAG benchmark: the scheduling overhead per step of a 20-step
// pipeline of trivial steps (a chain: each step waits for the one before),
// i.e. (run wall time - the steps' own SQL time) / steps, against the raw
// pg-boss latency of one job send → handler done measured in the same run
// with the same settings as the platform's long tasks (LISTEN/NOTIFY on the
// queue, pollingIntervalSeconds = max(0.5, JOBS_POLL_INTERVAL_MS / 1000) as
// the backstop). A step's
// overhead is one pg-boss hop plus its claim and settle transactions, the
// DAG bookkeeping and the lake's snapshot write around the SQL. Run with
// `npm run bench:pipelines-dag` (a throwaway Postgres is started).
// BENCH_STEPS (20), BENCH_RUNS (3), BENCH_JOBS (20) tune it.
import { performance } from 'node:perf_hooks';
import { PgBoss } from 'pg-boss';
import { startTestPlatform, tenantWithAdmin, until } from '../test/harness.ts';

const STEPS = Number(process.env.BENCH_STEPS ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const JOBS = Number(process.env.BENCH_JOBS ?? 20);
const POLL_MS = Number(process.env.JOBS_POLL_INTERVAL_MS ?? 100);
const teardowns: (() => unknown)[] = [];
const tap = { teardown: (fn: () => unknown) => void teardowns.push(fn) };
const round = (n: number, digits = 1) => Number(n.toFixed(digits));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Raw pg-boss: send one job, wait for its handler to finish; sequential, so each is one hop. */
async function rawPgBossLatency(databaseUrl: string): Promise<number[]> {
  const boss = new PgBoss({ connectionString: databaseUrl, schema: 'bench_boss', max: 4, useListenNotify: true });
  boss.on('error', () => {});
  await boss.start();
  teardowns.push(() => boss.stop({ graceful: false }));
  await boss.createQueue('bench.hop', { notify: true });
  const done = new Map<string, () => void>();
  const poll = Math.max(0.5, POLL_MS / 1000);
  await boss.work('bench.hop', { pollingIntervalSeconds: poll, notifyPollingIntervalSeconds: poll }, async ([job]) => {
    done.get((job.data as { key: string }).key)?.();
  });
  const latencies: number[] = [];
  for (let i = 0; i < JOBS; i += 1) {
    const key = `job-${i}`;
    const finished = new Promise<void>((resolve) => done.set(key, resolve));
    const start = performance.now();
    await boss.send('bench.hop', { key });
    await finished;
    latencies.push(performance.now() - start);
  }
  return latencies;
}

try {
  const tp = await startTestPlatform(tap, { env: { LOG_LEVEL: 'silent', JOBS_POLL_INTERVAL_MS: String(POLL_MS) } });
  await tp.platform.start();
  const { token } = await tenantWithAdmin(tp, 'bench');
  const api = async (method: string, url: string, payload?: unknown) => {
    const response = await tp.request({ method, url, token, tenant: 'bench', payload });
    if (response.status >= 400) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const steps = Array.from({ length: STEPS }, (_, i) => (i === 0
    ? { id: 's0', sql: 'SELECT 1::bigint AS n', output: 'chain_0', inputs: [] }
    : { id: `s${i}`, sql: `SELECT n + 1 AS n FROM derived.bench.chain_${i - 1}`, output: `chain_${i}`, inputs: [`s${i - 1}`] }));
  const pipeline = await api('POST', '/api/v1/pipelines', { name: 'chain', steps });
  await api('POST', `/api/v1/pipelines/${pipeline.id}/activate`, { force: true });

  const overheads: number[] = [];
  const walls: number[] = [];
  for (let r = 0; r < RUNS; r += 1) {
    const start = performance.now();
    const started = await api('POST', '/api/v1/temporal/workflows/pipeline', { pipeline_id: pipeline.id });
    const run = await until(async () => {
      const read = await api('GET', `/api/v1/temporal/workflows/${started.workflow_id}`);
      return read.is_terminal && read;
    }, 'the run', 600_000);
    const wall = performance.now() - start;
    if (run.status !== 'succeeded') throw new Error(`run ${run.status}: ${JSON.stringify(run.result.steps.map((s: { error: string }) => s.error))}`);
    const sql = run.result.steps.reduce((sum: number, s: { sql_ms: number }) => sum + s.sql_ms, 0);
    walls.push(wall);
    overheads.push((wall - sql) / STEPS);
  }
  const raw = await rawPgBossLatency(tp.databaseUrl);
  const perStep = median(overheads);
  const hop = median(raw);
  console.log(JSON.stringify({
    steps: STEPS, runs: RUNS, poll_interval_ms: POLL_MS,
    run_wall_ms_median: round(median(walls)),
    overhead_per_step_ms_median: round(perStep),
    raw_pgboss_send_to_done_ms_median: round(hop),
    raw_pgboss_send_to_done_ms_p95: round([...raw].sort((a, b) => a - b)[Math.floor(raw.length * 0.95)]),
    ratio_step_overhead_to_raw_hop: round(perStep / hop, 2),
  }, null, 2));
} finally {
  for (const teardown of teardowns.reverse()) await teardown();
}
