// Events benchmark: events/s with a workflow started per event (during the
// load and including the drain), emit → workflow-started latency (p50, p99),
// beside two graphile-worker baselines measured in the same run on the same
// database: add_job → task start latency, and raw add_jobs throughput (jobs
// added in batches of the dispatch batch size and run by a worker pool of the
// platform's concurrency doing nothing). Run with `npm run bench:events` (a
// throwaway Postgres is started).
//
// One tenant (the worst case: a tenant has one dispatcher). Ten active
// reactive triggers, `bench.t0` … `bench.t9`, each with a numeric filter and
// an input mapping; event i has type bench.t(i % 10), so every event is
// checked against all ten and starts one workflow (a one-step `log`
// workflow, which then runs and emits workflow.completed onto the stream too,
// as in production). "Started" is when the execution row commits: a Postgres
// trigger added by this benchmark NOTIFYs on its insert, which is delivered at
// commit. Emission is in-process, through core.events.emit in a tenant
// transaction, like every plugin's.
//
// Phases: (1) baselines: graphile-worker add_job → task start at a fixed
// rate, then add_jobs throughput; (2) latency: events at the same fixed rate;
// (3) throughput: emitters as fast as they go for a while, counting the
// workflows the triggers started during the load and until every emitted
// event has started its workflow (the drain) and run; (4) capacity: a backlog
// emitted while the dispatcher is held back, then released; (5) the same as
// (3) with filters that reject every event (the dispatcher alone).
//
// BENCH_RATE, BENCH_SECONDS, BENCH_LOAD_SECONDS, BENCH_EMITTERS,
// BENCH_DISPATCH_BATCH (100), BENCH_BASELINE_JOBS (20000), BENCH_BACKLOG
// (10000) tune it; BENCH_SOCKET=1 connects (the platform and the baselines)
// through the database's Unix socket instead of TCP.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import pg from 'pg';
import { run, type Runner } from 'graphile-worker';
import { createPlatform, type Platform } from '../core/boot.ts';
import { loadConfig } from '../core/config.ts';
import { cpuProfiled, statementStats } from './lib/profile.ts';

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
const EMITTERS = Number(process.env.BENCH_EMITTERS ?? 8);
const DISPATCH_BATCH = Number(process.env.BENCH_DISPATCH_BATCH ?? 100);
const BASELINE_JOBS = Number(process.env.BENCH_BASELINE_JOBS ?? 20_000);
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 10_000);
const WORKER_CONCURRENCY = Number(process.env.JOBS_CONCURRENCY ?? 5);
const TRIGGERS = 10;
const TENANT = 'bench';
const MANIFEST = fileURLToPath(new URL('./events.yaml', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
}

/** Calls `fire(i)` at `rate` per second for `seconds` (open loop: a slow call does not slow the schedule). */
async function atRate(rate: number, seconds: number, fire: (i: number) => Promise<void>): Promise<void> {
  const total = rate * seconds;
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i += 1) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    inFlight.push(fire(i));
  }
  await Promise.all(inFlight);
}

async function startPlatform(databaseUrl: string): Promise<Platform> {
  const config = loadConfig({
    ...process.env, DATABASE_URL: databaseUrl, PLATFORM_MANIFEST: MANIFEST, LOG_LEVEL: 'silent',
    ADMIN_TOKEN: `adm_${randomBytes(16).toString('hex')}`, PLATFORM_MASTER_KEY: randomBytes(32).toString('hex'),
  });
  const platform = await createPlatform({ config, port: 0, host: '127.0.0.1', announceAdminToken: () => {} });
  await platform.start();
  const admin = { authorization: `Bearer ${config.adminToken}`, 'x-tenant-id': TENANT };
  const call = async (method: string, url: string, payload: unknown) => {
    const response = await platform.server.inject({ method, url, headers: admin, payload: payload as object });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.payload}`);
  };
  await call('POST', '/api/admin/tenants', { id: TENANT });
  await call('POST', '/api/admin/workflows', { name: 'noop', steps: [{ id: 'log', type: 'ACTION', handler: 'log', arguments: { message: 'started' } }] });
  for (let i = 0; i < TRIGGERS; i += 1) {
    await call('POST', '/api/admin/triggers', {
      name: `bench-${i}`, event_type: `bench.t${i}`, target_name: 'noop',
      event_filter: { 'data.n': [{ numeric: ['>=', 0] }] }, input_mapping: { id: '{{event.data.id}}', n: '{{event.data.n}}' },
    });
  }
  return platform;
}

/** Resolves an execution's start at its commit: a NOTIFY from an insert trigger added for the benchmark. */
async function startedListener(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`
    CREATE OR REPLACE FUNCTION bench_started() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_notify('bench_started', NEW.inputs->>'id'); RETURN NEW; END $$;
    CREATE TRIGGER bench_started AFTER INSERT ON workflow_executions FOR EACH ROW EXECUTE FUNCTION bench_started();`);
  const waiting = new Map<string, (at: number) => void>();
  client.on('notification', (message) => {
    const resolve = waiting.get(message.payload ?? '');
    if (resolve) {
      waiting.delete(message.payload!);
      resolve(performance.now());
    }
  });
  await client.query('LISTEN bench_started');
  return {
    started: (id: string) => new Promise<number>((resolve) => waiting.set(id, resolve)),
    close: () => client.end(),
  };
}

async function measureBaseline(databaseUrl: string) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const starts = new Map<number, (at: number) => void>();
  const runner: Runner = await run({
    pgPool: pool, concurrency: 5, noHandleSignals: true, pollInterval: 1000,
    logger: new (await import('graphile-worker')).Logger(() => () => {}),
    taskList: { bench_probe: async (payload) => starts.get((payload as { i: number }).i)?.(performance.now()) },
  });
  const latencies: number[] = [];
  try {
    await atRate(RATE, SECONDS, async (i) => {
      const started = new Promise<number>((resolve) => starts.set(i, resolve));
      const t0 = performance.now();
      await pool.query(`SELECT graphile_worker.add_job('bench_probe', $1::json)`, [JSON.stringify({ i })]);
      latencies.push((await started) - t0);
      starts.delete(i);
    });
  } finally {
    await runner.stop();
    await pool.end();
  }
  return summary(latencies);
}

/**
 * Raw graphile-worker throughput through add_jobs: BASELINE_JOBS no-op jobs
 * added in batches of the dispatch batch size by EMITTERS concurrent callers,
 * run by a worker pool of the platform's concurrency. Reports the add rate
 * (jobs committed/s while adding) and the end-to-end rate (jobs run/s from the
 * first add to the last run).
 */
async function measureAddJobs(databaseUrl: string) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: EMITTERS + WORKER_CONCURRENCY + 2 });
  let ran = 0;
  let allRan: () => void = () => {};
  const done = new Promise<void>((resolve) => { allRan = resolve; });
  const runner: Runner = await run({
    pgPool: pool, concurrency: WORKER_CONCURRENCY, noHandleSignals: true, pollInterval: 1000,
    logger: new (await import('graphile-worker')).Logger(() => () => {}),
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
    taskList: { bench_noop: async () => { if (++ran === BASELINE_JOBS) allRan(); } },
  });
  try {
    const batches = Math.ceil(BASELINE_JOBS / DISPATCH_BATCH);
    let next = 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: EMITTERS }, async () => {
      for (let b = next++; b < batches; b = next++) {
        const size = Math.min(DISPATCH_BATCH, BASELINE_JOBS - b * DISPATCH_BATCH);
        const specs = Array.from({ length: size }, (_, i) => ({ identifier: 'bench_noop', payload: { i: b * DISPATCH_BATCH + i } }));
        await pool.query(`SELECT count(*) FROM graphile_worker.add_jobs(ARRAY(
          SELECT s FROM json_populate_recordset(NULL::graphile_worker.job_spec, $1::json) s))`, [JSON.stringify(specs)]);
      }
    }));
    const added = performance.now();
    await done;
    const finished = performance.now();
    return { addedPerSecond: BASELINE_JOBS / ((added - t0) / 1000), ranPerSecond: BASELINE_JOBS / ((finished - t0) / 1000) };
  } finally {
    await runner.stop();
    await pool.end();
  }
}

/** Emits event n; `matching: false` gives it a negative n, which every trigger's filter rejects. */
function emitter(platform: Platform, matching = true) {
  const { core } = platform;
  return (id: string, n: number) =>
    core.withTenant(TENANT, (trx) => core.events.emit(trx, TENANT, {
      type: `bench.t${n % TRIGGERS}`, source: '/bench', data: { id, n: matching ? n : -1 - n },
    }));
}

async function measureLatency(platform: Platform, listener: Awaited<ReturnType<typeof startedListener>>) {
  const emit = emitter(platform);
  const latencies: number[] = [];
  const fromCommit: number[] = [];
  await atRate(RATE, SECONDS, async (i) => {
    const id = `lat-${i}`;
    const started = listener.started(id);
    const t0 = performance.now();
    await emit(id, i);
    const committed = performance.now();
    const at = await started;
    latencies.push(at - t0);
    fromCommit.push(at - committed);
  });
  return { fromCall: summary(latencies), fromCommit: summary(fromCommit) };
}

/** A stream position (transaction id, number) as the database returns it. */
type Position = [string, string] | null;

/** Whether position a is at or past b (null: before every event). */
function atOrPast(a: Position, b: Position): boolean {
  if (b === null) return true;
  if (a === null) return false;
  const [ax, bx] = [BigInt(a[0]), BigInt(b[0])];
  return ax > bx || (ax === bx && BigInt(a[1]) >= BigInt(b[1]));
}

/** Cheap enough to poll: the stream's last position, the dispatcher's cursor, workflows started and finished. */
async function streamPosition(client: pg.Client) {
  const { rows } = await client.query(`SELECT
    (SELECT array[xid::text, seq::text] FROM events WHERE tenant_id = $1 ORDER BY xid DESC, seq DESC LIMIT 1) AS last,
    (SELECT array[dispatched_xid::text, dispatched_seq::text] FROM event_cursors WHERE tenant_id = $1) AS cursor,
    (SELECT count(*) FROM trigger_dispatches WHERE tenant_id = $1 AND status = 'started')::int AS started,
    (SELECT count(*) FROM workflow_executions WHERE tenant_id = $1 AND finished_at IS NOT NULL)::int AS finished`, [TENANT]);
  return rows[0] as { last: Position; cursor: Position; started: number; finished: number };
}

/** How many events the stream holds and how many the cursor has passed (a count: only at the points a figure needs). */
async function streamCounts(client: pg.Client) {
  const { rows } = await client.query(`SELECT count(*)::int AS total,
    count(*) FILTER (WHERE (e.xid, e.seq) <= (c.dispatched_xid, c.dispatched_seq))::int AS dispatched
    FROM events e LEFT JOIN event_cursors c USING (tenant_id) WHERE e.tenant_id = $1`, [TENANT]);
  return rows[0] as { total: number; dispatched: number };
}

/** Polls until `done` holds for the stream position; returns the last position read. */
async function waitFor(client: pg.Client, done: (position: Awaited<ReturnType<typeof streamPosition>>) => boolean) {
  let now = await streamPosition(client);
  while (!done(now)) {
    // Counting started and finished workflows is not free: poll gently.
    await sleep(250);
    now = await streamPosition(client);
  }
  return now;
}

/** Emits `count` events from EMITTERS concurrent emitters as fast as they go. */
async function emitMany(emit: ReturnType<typeof emitter>, prefix: string, count: number, stopAt = Infinity) {
  let emitted = 0;
  let next = 0;
  await Promise.all(Array.from({ length: EMITTERS }, async () => {
    for (let n = next++; n < count && performance.now() < stopAt; n = next++) {
      await emit(`${prefix}-${n}`, n);
      emitted += 1;
    }
  }));
  return emitted;
}

/**
 * Emitters as fast as they go for LOAD_SECONDS; then waits until every event
 * of the load is dispatched and (with `matching`) has started its workflow,
 * and until those workflows have finished. Workflows started counts the
 * trigger starts (one per emitted event when `matching`); events dispatched
 * also counts the workflow.completed events the started workflows add.
 */
async function measureThroughput(platform: Platform, client: pg.Client, matching: boolean) {
  const emit = emitter(platform, matching);
  const before = { ...await streamPosition(client), ...await streamCounts(client) };
  const startedAt = performance.now();
  const emitted = await emitMany(emit, `load-${matching}`, Number.MAX_SAFE_INTEGER, startedAt + LOAD_SECONDS * 1000);
  const window = (performance.now() - startedAt) / 1000;
  const atEnd = { ...await streamPosition(client), ...await streamCounts(client) };
  const expectedStarts = before.started + (matching ? emitted : 0);
  const caughtUp = await waitFor(client, (p) => atOrPast(p.cursor, atEnd.last) && p.started >= expectedStarts);
  const drained = (performance.now() - startedAt) / 1000;
  const now = { ...caughtUp, ...await streamCounts(client) };
  const finished = await waitFor(client, (p) => p.finished >= before.finished + (now.started - before.started));
  const ran = (performance.now() - startedAt) / 1000;
  return {
    emittedPerSecond: emitted / window,
    startedPerSecondInWindow: (atEnd.started - before.started) / window,
    startedPerSecondOverall: (now.started - before.started) / drained,
    finishedPerSecondOverall: (finished.finished - before.finished) / ran,
    dispatchedPerSecondInWindow: (atEnd.dispatched - before.dispatched) / window,
    dispatchedPerSecondOverall: (now.dispatched - before.dispatched) / drained,
    backlogAtEnd: atEnd.total - atEnd.dispatched,
    drainSeconds: drained - window,
    emitted,
    started: now.started - before.started,
  };
}

/**
 * The dispatcher's capacity, not bounded by the emitters: BACKLOG events are
 * emitted while the bench holds the dispatcher's cursor row (its batch waits
 * on the lock), then released; the rate at which the backlog starts its
 * workflows (while those run on the same cores) is what the dispatcher
 * sustains, and the rate until they have all finished is the end to end one.
 */
async function measureBacklog(platform: Platform, databaseUrl: string, client: pg.Client) {
  const blocker = new pg.Client({ connectionString: databaseUrl });
  await blocker.connect();
  try {
    const before = await streamPosition(client);
    await blocker.query('BEGIN');
    await blocker.query('SELECT dispatched_seq FROM event_cursors WHERE tenant_id = $1 FOR UPDATE', [TENANT]);
    const emitted = await emitMany(emitter(platform), 'backlog', BACKLOG);
    const released = performance.now();
    await blocker.query('COMMIT');
    const started = await waitFor(client, (p) => p.started >= before.started + emitted);
    const allStarted = performance.now();
    const finished = await waitFor(client, (p) => p.finished >= before.finished + emitted);
    const allFinished = performance.now();
    return {
      events: emitted,
      startedPerSecond: (started.started - before.started) / ((allStarted - released) / 1000),
      finishedPerSecond: (finished.finished - before.finished) / ((allFinished - released) / 1000),
    };
  } finally {
    await blocker.end();
  }
}

/**
 * BENCH_CPU_PROFILE=<file>: a CPU profile of this process (node:inspector)
 * during the run under load, or the backlog run with BENCH_CPU_PROFILE_PHASE=backlog.
 */
const profiled = <T>(phase: 'load' | 'backlog', work: () => Promise<T>): Promise<T> =>
  cpuProfiled((process.env.BENCH_CPU_PROFILE_PHASE ?? 'load') === phase ? process.env.BENCH_CPU_PROFILE : undefined, work);

async function main() {
  // BENCH_SOCKET=1: the database through its Unix socket (as a platform on the database's host connects best), not TCP.
  const overSocket = process.env.BENCH_SOCKET === '1';
  const databaseUrl = overSocket ? process.env.DATABASE_SOCKET_URL : process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set: run through `npm run bench:events`');
  const platform = await startPlatform(databaseUrl);
  const listener = await startedListener(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await measureLatency(platform, listener); // warm-up
    const baseline = await measureBaseline(databaseUrl);
    const addJobs = await measureAddJobs(databaseUrl);
    const latency = await measureLatency(platform, listener);
    // The start-notifying trigger costs a NOTIFY per execution: not during the throughput runs.
    await client.query('DROP TRIGGER IF EXISTS bench_started ON workflow_executions');
    const statements = await statementStats(client);
    const throughput = await profiled('load', () => measureThroughput(platform, client, true));
    const topStatements = await statements?.();
    const backlog = await profiled('backlog', () => measureBacklog(platform, databaseUrl, client));
    const filtered = await measureThroughput(platform, client, false);
    const load = os.loadavg().map((v) => v.toFixed(2)).join(' ');
    const f = (v: number) => v.toFixed(2).padStart(8);
    const r = (v: number) => v.toFixed(0);
    console.log(`node ${process.version}, ${os.cpus().length} cores, load average at the end ${load}; database over ${overSocket ? 'its Unix socket' : 'TCP (loopback)'}; one tenant, ${TRIGGERS} active triggers, `
      + `dispatch batch ${DISPATCH_BATCH}, ${WORKER_CONCURRENCY} workers; ${RATE}/s for ${SECONDS}s (latency), ${EMITTERS} emitters for ${LOAD_SECONDS}s (throughput)`);
    console.log(`${'latency (ms)'.padEnd(46)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)}`);
    console.log(`${'graphile-worker add_job → task start'.padEnd(46)} ${f(baseline.p50)} ${f(baseline.p99)} ${f(baseline.max)}`);
    console.log(`${'emit call → workflow started (committed)'.padEnd(46)} ${f(latency.fromCall.p50)} ${f(latency.fromCall.p99)} ${f(latency.fromCall.max)}`);
    console.log(`${'emit committed → workflow started (committed)'.padEnd(46)} ${f(latency.fromCommit.p50)} ${f(latency.fromCommit.p99)} ${f(latency.fromCommit.max)}`);
    console.log(`ratio p50 (events/graphile-worker): ${(latency.fromCall.p50 / baseline.p50).toFixed(2)} from the emit call, ${(latency.fromCommit.p50 / baseline.p50).toFixed(2)} from its commit;`
      + ` p99: ${(latency.fromCall.p99 / baseline.p99).toFixed(2)}, ${(latency.fromCommit.p99 / baseline.p99).toFixed(2)}`);
    console.log(`graphile-worker add_jobs (batches of ${DISPATCH_BATCH}, ${EMITTERS} callers, ${BASELINE_JOBS} no-op jobs): `
      + `${r(addJobs.addedPerSecond)} jobs/s added, ${r(addJobs.ranPerSecond)} jobs/s added and run`);
    const t = throughput;
    console.log(`events with a workflow each, under load: emitted ${r(t.emittedPerSecond)}/s; workflows started ${r(t.startedPerSecondInWindow)}/s during the load, `
      + `${r(t.startedPerSecondOverall)}/s including the drain (${t.started} started for ${t.emitted} events; backlog ${t.backlogAtEnd} at the end, drained in ${t.drainSeconds.toFixed(1)}s), `
      + `${r(t.finishedPerSecondOverall)}/s until they had all run; stream events dispatched (with workflow.completed) ${r(t.dispatchedPerSecondInWindow)}/s, ${r(t.dispatchedPerSecondOverall)}/s`);
    console.log(`events with a workflow each, from a backlog of ${backlog.events}: workflows started ${r(backlog.startedPerSecond)}/s, `
      + `${r(backlog.finishedPerSecond)}/s until they had all run`);
    const ratio = (value: number) => `${(value / addJobs.addedPerSecond).toFixed(3)} of added, ${(value / addJobs.ranPerSecond).toFixed(3)} of added and run`;
    console.log(`ratio to add_jobs (workflows/s ÷ jobs/s): started during the load ${ratio(t.startedPerSecondInWindow)}; with the drain ${ratio(t.startedPerSecondOverall)}; `
      + `from the backlog ${ratio(backlog.startedPerSecond)}; run from the backlog ${ratio(backlog.finishedPerSecond)}`);
    if (topStatements) {
      console.log('pg_stat_statements during the run with a workflow per event (calls, total ms, mean ms, % of database time):');
      for (const row of topStatements) console.log(`${String(row.calls).padStart(8)} ${String(row.ms).padStart(7)} ${String(row.mean_ms).padStart(8)} ${String(row.pct).padStart(3)}%  ${row.query}`);
    }
    console.log(`filters reject every event (dispatcher alone): emitted ${r(filtered.emittedPerSecond)}/s; dispatched ${r(filtered.dispatchedPerSecondInWindow)}/s during the load, `
      + `${r(filtered.dispatchedPerSecondOverall)}/s including the drain (backlog ${filtered.backlogAtEnd} at the end, drained in ${filtered.drainSeconds.toFixed(1)}s)`);
  } finally {
    await client.query('DROP TRIGGER IF EXISTS bench_started ON workflow_executions').catch(() => {});
    await client.end();
    await listener.close();
    await platform.stop();
  }
}

await main();
