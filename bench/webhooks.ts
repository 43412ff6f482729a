// Signed-resume benchmark: requests/s and latency of POST /api/webhooks/{event_type}
// through the whole platform — raw-body HMAC check against the tenant's sealed
// signing secret, timestamp, idempotency record and rate-limit row in Postgres,
// then the signal persisted on a waiting execution by the workflows plugin —
// beside a bare hapi server answering the same requests with a static 202, in
// the same run. Run with `npm run bench:webhooks` (a throwaway Postgres is started).
//
// 100 executions (10 tenants × 10) wait at a WAIT step for an event type that
// is never sent, so every signal is delivered and buffered (persisted) and the
// executions stay waiting; each request is distinct (unique X-Webhook-Id).
// After the run the figures are verified: every 2xx answer must have left one
// idempotency record and one buffered signal in Postgres, and nothing else.
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import Hapi from '@hapi/hapi';
import { sql } from 'kysely';
import { createPlatform, type Platform } from '../core/boot.ts';
import { loadConfig } from '../core/config.ts';
import type { SignedLoadOptions, SignedLoadResult, SignedTarget } from './lib/signed-load.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const TENANTS = Number(process.env.BENCH_TENANTS ?? 10);
const EXECUTIONS_PER_TENANT = Number(process.env.BENCH_EXECUTIONS_PER_TENANT ?? 10);
const EVENT_TYPE = 'bench.ping';
const LOAD_SCRIPT = fileURLToPath(new URL('./lib/signed-load.ts', import.meta.url));
const MANIFEST = fileURLToPath(new URL('./webhooks.yaml', import.meta.url));

function load(url: string, targets: SignedTarget[]): Promise<SignedLoadResult> {
  const options: SignedLoadOptions = { url, targets, connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS, seconds: SECONDS };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [LOAD_SCRIPT, JSON.stringify(options)], { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`load generator failed: ${stderr || err.message}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()!) as SignedLoadResult);
    });
  });
}

async function measureBaseline(targets: SignedTarget[]): Promise<SignedLoadResult> {
  const server = Hapi.server({ port: 0, host: '127.0.0.1' });
  server.route({
    method: 'POST', path: '/api/webhooks/{event_type}',
    handler: (_request, h) => h.response({ status: 'delivered', workflow_id: 'static' }).code(202),
  });
  await server.start();
  try {
    return await load(`${server.info.uri}/api/webhooks/${EVENT_TYPE}`, targets);
  } finally {
    await server.stop();
  }
}

async function call(base: string, method: string, path: string, token: string, payload?: unknown, tenant?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  if (tenant) headers['x-tenant-id'] = tenant;
  const response = await fetch(`${base}${path}`, { method, headers, body: payload === undefined ? undefined : JSON.stringify(payload) });
  const body = (await response.json()) as Record<string, any>;
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** Tenants with signing secrets and executions waiting at a WAIT step, created over the REST API. */
async function prepare(base: string, adminToken: string): Promise<SignedTarget[]> {
  const targets: SignedTarget[] = [];
  const run = randomBytes(3).toString('hex');
  for (let i = 0; i < TENANTS; i++) {
    const tenant = `bench-${run}-${i}`;
    await call(base, 'POST', '/api/admin/tenants', adminToken, { id: tenant });
    const { secret } = await call(base, 'POST', '/api/admin/webhooks/signing-secret', adminToken, undefined, tenant);
    await call(base, 'POST', '/api/admin/workflows', adminToken, {
      name: 'await-approval',
      steps: [{ id: 'wait', type: 'WAIT', handler: 'temporal:wait_for_event', event_type: 'never.sent', timeout_seconds: 3600, output_key: 'approval' }],
    }, tenant);
    for (let j = 0; j < EXECUTIONS_PER_TENANT; j++) {
      const { execution_id } = await call(base, 'POST', '/api/admin/workflows/await-approval/execute', adminToken, { inputs: {} }, tenant);
      targets.push({ tenant_id: tenant, workflow_id: execution_id, secret });
    }
  }
  const deadline = Date.now() + 60_000;
  for (const target of targets) {
    while ((await call(base, 'GET', `/api/admin/executions/${target.workflow_id}`, adminToken, undefined, target.tenant_id)).status !== 'waiting') {
      if (Date.now() > deadline) throw new Error(`execution ${target.workflow_id} is not waiting after 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return targets;
}

/** What Postgres holds after the run: idempotency records and buffered signals, summed over the tenants. */
async function persisted(platform: Platform, tenants: string[]) {
  let records = 0;
  let buffered = 0;
  let notWaiting = 0;
  for (const tenant of tenants) {
    const counts = await platform.core.withTenant(tenant, async (trx) => {
      const ids = await sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_deliveries WHERE scope = 'resume'`.execute(trx);
      const signals = await sql<{ n: number; other: number }>`
        SELECT coalesce(sum(jsonb_array_length(state->'buffered')), 0)::int AS n,
               count(*) FILTER (WHERE status <> 'waiting')::int AS other
        FROM workflow_executions`.execute(trx);
      return { ids: ids.rows[0].n, signals: signals.rows[0].n, other: signals.rows[0].other };
    });
    records += counts.ids;
    buffered += counts.signals;
    notWaiting += counts.other;
  }
  return { records, buffered, notWaiting };
}

async function measure() {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run through `npm run bench:webhooks`');
  const adminToken = `adm_${randomBytes(16).toString('hex')}`;
  const config = loadConfig({
    ...process.env, ADMIN_TOKEN: adminToken, PLATFORM_MASTER_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent',
    PLATFORM_MANIFEST: MANIFEST, WEBHOOK_SECRET: '',
  });
  const platform = await createPlatform({ config, port: 0, host: '127.0.0.1', announceAdminToken: () => {} });
  await platform.start();
  try {
    const base = platform.server.info.uri;
    const prepared = await prepare(base, adminToken);
    const baseline = await measureBaseline(prepared);
    const result = await load(`${base}/api/webhooks/${EVENT_TYPE}`, prepared);
    const rss = process.memoryUsage().rss;
    const stored = await persisted(platform, [...new Set(prepared.map((t) => t.tenant_id))]);
    return { baseline, result, stored, rss, executions: prepared.length };
  } finally {
    await platform.stop();
  }
}

function row(name: string, r: SignedLoadResult): string {
  return `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${String(r.errors + r.non2xx).padStart(7)}`;
}

const { baseline, result, stored, rss, executions } = await measure();
console.log(`node ${process.version}, ${os.cpus().length} cores, ${CONNECTIONS} connections, ${WARMUP_SECONDS}s warm-up + ${SECONDS}s measured per target, `
  + `${executions} waiting executions over ${TENANTS} tenants`);
console.log(`${'target'.padEnd(34)} ${'2xx/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'failed'.padStart(7)}`);
console.log(row('baseline: bare hapi, static 202', baseline));
console.log(row('platform: signed resume', result));
console.log(`ratio (platform/baseline) req/s: ${(result.rps / baseline.rps).toFixed(2)}`);
console.log(`server RSS after the run: ${(rss / 1024 / 1024).toFixed(0)} MB`);
// Requests cut off when a run's duration ends may have been persisted without
// their answer being counted: at most one per connection per run.
const unanswered = stored.records - result.accepted;
console.log(`verified: ${result.accepted} accepted (2xx), ${stored.records} idempotency records, ${stored.buffered} buffered signals, `
  + `${stored.notWaiting} executions no longer waiting`);
const failures: string[] = [];
if (baseline.errors + baseline.non2xx + result.errors + result.non2xx > 0) failures.push(`some requests failed: ${JSON.stringify(result.statuses)}`);
if (stored.records !== stored.buffered) failures.push('idempotency records and buffered signals differ');
if (unanswered < 0 || unanswered > 2 * CONNECTIONS) failures.push(`${unanswered} persisted signals without a counted answer`);
if (stored.notWaiting > 0) failures.push('some executions stopped waiting');
for (const failure of failures) console.error(`NOT VERIFIED: ${failure}`);
if (failures.length) process.exitCode = 1;
