// Approvals benchmark: decisions per second and their latency through the
// whole platform (POST /api/approvals/{id}/decision: token check, the case's
// row lock, the quorum count, and for a settling decision the resolved row,
// approval.resolved on the stream, the expiry job removed and the notify job
// added), beside a baseline measured in the same run on the same database:
// bare transactions that lock a row and update it (the least any locked
// decision costs). Run with `npm run bench:approvals` (a throwaway Postgres is started).
//
// 1. Independent cases, quorum 1: CONCURRENCY callers decide distinct cases.
// 2. Contention, quorum = APPROVERS: every approver decides the same case at
//    once; the figures are checked after the run (each case approved with
//    exactly `quorum` decisions and one approval.resolved).
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createPlatform, type Platform } from '../core/boot.ts';
import { loadConfig } from '../core/config.ts';

const TENANT = 'bench';
const APPROVERS = Number(process.env.BENCH_APPROVERS ?? 8);
const CASES = Number(process.env.BENCH_CASES ?? 400);
const CONTENDED = Number(process.env.BENCH_CONTENDED_CASES ?? 40);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const MANIFEST = fileURLToPath(new URL('./approvals.yaml', import.meta.url));

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1)! };
};

/** Runs `work(i, caller)` for i < total with `concurrency` callers; returns each call's latency (ms) and the wall time. */
async function pool(total: number, concurrency: number, work: (i: number, caller: number) => Promise<void>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async (_, caller) => {
    while (next < total) {
      const i = next++;
      const t0 = performance.now();
      await work(i, caller);
      latencies.push(performance.now() - t0);
    }
  }));
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set: run through `npm run bench:approvals`');
  const config = loadConfig({
    ...process.env, DATABASE_URL: databaseUrl, PLATFORM_MANIFEST: MANIFEST, LOG_LEVEL: 'silent',
    ADMIN_TOKEN: `adm_${randomBytes(16).toString('hex')}`, PLATFORM_MASTER_KEY: randomBytes(32).toString('hex'),
  });
  const platform: Platform = await createPlatform({ config, port: 0, host: '127.0.0.1', announceAdminToken: () => {} });
  await platform.start();
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const call = async (method: string, url: string, token: string, payload?: unknown) => {
      const response = await platform.server.inject({ method, url, headers: { authorization: `Bearer ${token}`, 'x-tenant-id': TENANT }, payload: payload as object });
      if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.payload}`);
      return JSON.parse(response.payload);
    };
    await call('POST', '/api/admin/tenants', config.adminToken!, { id: TENANT });
    const tokens: string[] = [];
    for (let i = 0; i < APPROVERS; i++) {
      await call('POST', '/api/admin/users', config.adminToken!, { sub: `approver-${i}`, display_name: `A${i}`, organizations: [TENANT], roles: ['board'] });
      tokens.push((await call('POST', `/api/admin/users/approver-${i}/tokens`, config.adminToken!)).access_token);
    }
    const open = (quorum: number) => call('POST', '/api/approvals', config.adminToken!, { title: 'Bench', approvers: { roles: ['board'] }, quorum });

    // Baseline: a locked read and an update per transaction, on rows of a bench table.
    await db.query('CREATE TABLE IF NOT EXISTS bench_decisions (id int PRIMARY KEY, decisions jsonb NOT NULL DEFAULT \'[]\')');
    await db.query('TRUNCATE bench_decisions');
    await db.query(`INSERT INTO bench_decisions (id) SELECT generate_series(1, ${CASES})`);
    const clients = await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      return client;
    }));
    const baseline = await pool(CASES, CONCURRENCY, async (i, caller) => {
      const client = clients[caller];
      await client.query('BEGIN');
      await client.query('SELECT decisions FROM bench_decisions WHERE id = $1 FOR UPDATE', [i + 1]);
      await client.query(`UPDATE bench_decisions SET decisions = decisions || '[{"by": "x"}]'::jsonb WHERE id = $1`, [i + 1]);
      await client.query('COMMIT');
    });
    await Promise.all(clients.map((client) => client.end()));

    const cases: string[] = [];
    for (let i = 0; i < CASES; i++) cases.push((await open(1)).id);
    const independent = await pool(CASES, CONCURRENCY, async (i) => {
      await call('POST', `/api/approvals/${cases[i]}/decision`, tokens[i % APPROVERS], { decision: 'approve' });
    });

    const contendedIds: string[] = [];
    for (let i = 0; i < CONTENDED; i++) contendedIds.push((await open(APPROVERS)).id);
    const perCase: number[] = [];
    const contendedStart = performance.now();
    for (const id of contendedIds) {
      const t0 = performance.now();
      await Promise.all(tokens.map((token) => call('POST', `/api/approvals/${id}/decision`, token, { decision: 'approve' })));
      perCase.push(performance.now() - t0);
    }
    const contendedSeconds = (performance.now() - contendedStart) / 1000;
    const check = await db.query(`SELECT count(*) FILTER (WHERE status = 'approved' AND jsonb_array_length(decisions) = $1) AS ok FROM approval_cases WHERE quorum = $1`, [APPROVERS]);
    const resolved = await db.query(`SELECT count(*) AS n FROM events WHERE type = 'approval.resolved'`).catch(() => ({ rows: [{ n: 'n/a' }] }));

    const f = (v: number) => v.toFixed(1).padStart(7);
    const base = CASES / baseline.seconds;
    const decided = CASES / independent.seconds;
    const b = stats(baseline.latencies);
    const d = stats(independent.latencies);
    console.log(`node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}; `
      + `${APPROVERS} approvers, ${CONCURRENCY} callers, ${CASES} cases (quorum 1), ${CONTENDED} contended cases (quorum ${APPROVERS})`);
    console.log(`${'latency (ms)'.padEnd(52)}     p50     p95     max   per second`);
    console.log(`${'baseline: BEGIN, SELECT … FOR UPDATE, UPDATE, COMMIT'.padEnd(52)} ${f(b.p50)} ${f(b.p95)} ${f(b.max)} ${base.toFixed(0).padStart(10)}`);
    console.log(`${'decision that settles a case (quorum 1)'.padEnd(52)} ${f(d.p50)} ${f(d.p95)} ${f(d.max)} ${decided.toFixed(0).padStart(10)}`);
    const c = stats(perCase);
    console.log(`${`${APPROVERS} approvers at once on one case, until approved`.padEnd(52)} ${f(c.p50)} ${f(c.p95)} ${f(c.max)} ${((CONTENDED * APPROVERS) / contendedSeconds).toFixed(0).padStart(10)} decisions`);
    console.log(`ratio decisions/s ÷ baseline transactions/s: ${(decided / base).toFixed(3)}; p50 latency ratio ${(d.p50 / b.p50).toFixed(2)}`);
    console.log(`check: ${check.rows[0].ok}/${CONTENDED} contended cases approved with exactly ${APPROVERS} decisions; approval.resolved events on the stream: ${resolved.rows[0].n}`);
  } finally {
    await db.query('DROP TABLE IF EXISTS bench_decisions').catch(() => {});
    await db.end();
    await platform.stop();
  }
}

await main();
