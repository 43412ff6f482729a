// Events benchmark: emit → workflow-started latency (p50, p99) and sustained
// events/s dispatched with 10 active triggers, beside graphile-worker's own
// add_job → task-start latency measured in the same run on the same database.
// Run with `npm run bench:events` (a throwaway Postgres is started).
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
// Phases: (1) baseline: graphile-worker add_job → task start, a fixed rate;
// (2) latency: events at the same fixed rate; (3) throughput: emitters as fast
// as they go for a while, then the dispatcher's rate over the window and the
// time to drain the backlog.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import pg from 'pg';
import { run, type Runner } from 'graphile-worker';
import { createPlatform, type Platform } from '../core/boot.ts';
import { loadConfig } from '../core/config.ts';

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
const EMITTERS = Number(process.env.BENCH_EMITTERS ?? 8);
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

async function streamPosition(client: pg.Client) {
  const { rows } = await client.query(`SELECT
    (SELECT last_seq FROM event_streams WHERE tenant_id = $1)::int AS last,
    (SELECT dispatched_seq FROM event_cursors WHERE tenant_id = $1)::int AS cursor`, [TENANT]);
  return rows[0] as { last: number; cursor: number };
}

async function measureThroughput(platform: Platform, client: pg.Client, matching: boolean) {
  const emit = emitter(platform, matching);
  const before = await streamPosition(client);
  const startedAt = performance.now();
  let emitted = 0;
  let stop = false;
  const until = startedAt + LOAD_SECONDS * 1000;
  await Promise.all(Array.from({ length: EMITTERS }, async (_, worker) => {
    for (let n = worker; !stop; n += EMITTERS) {
      await emit(`load-${n}`, n);
      emitted += 1;
      if (performance.now() >= until) stop = true;
    }
  }));
  const window = (performance.now() - startedAt) / 1000;
  const atEnd = await streamPosition(client);
  for (;;) {
    const now = await streamPosition(client);
    if (now.cursor >= atEnd.last) break;
    await sleep(20);
  }
  const drained = (performance.now() - startedAt) / 1000;
  const dispatchedInWindow = atEnd.cursor - before.cursor;
  const total = atEnd.last - before.cursor;
  return {
    emittedPerSecond: emitted / window,
    dispatchedPerSecondInWindow: dispatchedInWindow / window,
    dispatchedPerSecondOverall: total / drained,
    backlogAtEnd: atEnd.last - atEnd.cursor,
    drainSeconds: drained - window,
    eventsOnStream: total,
  };
}

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set: run through `npm run bench:events`');
  const platform = await startPlatform(databaseUrl);
  const listener = await startedListener(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await measureLatency(platform, listener); // warm-up
    const baseline = await measureBaseline(databaseUrl);
    const latency = await measureLatency(platform, listener);
    const throughput = await measureThroughput(platform, client, true);
    const filtered = await measureThroughput(platform, client, false);
    const { rows } = await client.query(`SELECT count(*)::int AS n FROM trigger_dispatches WHERE tenant_id = $1 AND status = 'started'`, [TENANT]);
    const f = (v: number) => v.toFixed(2).padStart(8);
    console.log(`node ${process.version}, ${os.cpus().length} cores, one tenant, ${TRIGGERS} active triggers, ${RATE}/s for ${SECONDS}s (latency), ${EMITTERS} emitters for ${LOAD_SECONDS}s (throughput)`);
    console.log(`${'latency (ms)'.padEnd(46)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)}`);
    console.log(`${'graphile-worker add_job → task start'.padEnd(46)} ${f(baseline.p50)} ${f(baseline.p99)} ${f(baseline.max)}`);
    console.log(`${'emit call → workflow started (committed)'.padEnd(46)} ${f(latency.fromCall.p50)} ${f(latency.fromCall.p99)} ${f(latency.fromCall.max)}`);
    console.log(`${'emit committed → workflow started (committed)'.padEnd(46)} ${f(latency.fromCommit.p50)} ${f(latency.fromCommit.p99)} ${f(latency.fromCommit.max)}`);
    console.log(`ratio p50 (events/graphile-worker): ${(latency.fromCall.p50 / baseline.p50).toFixed(2)} from the emit call, ${(latency.fromCommit.p50 / baseline.p50).toFixed(2)} from its commit;`
      + ` p99: ${(latency.fromCall.p99 / baseline.p99).toFixed(2)}, ${(latency.fromCommit.p99 / baseline.p99).toFixed(2)}`);
    for (const [label, r] of [['every event starts a workflow', throughput], ['filters reject every event (dispatcher alone)', filtered]] as const) {
      console.log(`throughput, ${label}: emitted ${r.emittedPerSecond.toFixed(0)}/s; dispatched ${r.dispatchedPerSecondInWindow.toFixed(0)}/s during the load, `
        + `${r.dispatchedPerSecondOverall.toFixed(0)}/s including the drain (backlog ${r.backlogAtEnd} at the end, drained in ${r.drainSeconds.toFixed(1)}s; `
        + `${r.eventsOnStream} events incl. workflow.completed)`);
    }
    console.log(`workflows started by triggers in the whole run: ${rows[0].n}`);
  } finally {
    await client.query('DROP TRIGGER IF EXISTS bench_started ON workflow_executions').catch(() => {});
    await client.end();
    await listener.close();
    await platform.stop();
  }
}

await main();
