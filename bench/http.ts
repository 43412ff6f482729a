// HTTP benchmark: an authenticated admin GET that reads one row through the
// whole platform (GET /api/admin/clients/{id}: user JWT, X-Tenant-ID, tenant
// check, withTenant under row-level security, response validation, logging,
// metrics) against a bare hapi server answering a static route, measured in the
// same run; the ratio of the two is the headline. For scale, a third row reads
// the same row from the same bare hapi server through raw pg with the same
// statements the platform sends (begin + SET LOCAL role and tenant, the select,
// commit): what the database round trips alone cost, without the platform.
// Run with `npm run bench:http` (a throwaway Postgres is started).
//
// The load generator runs in a child process (bench/lib/load.ts), not in this
// one: in-process, autocannon's own parsing and bookkeeping would share the
// event loop with the server under test, adding the same fixed cost to every
// request of every target and so flattering the ratio; as a separate process
// on a 2-core machine it gets the other core (with Postgres). The targets run
// one after the other, each with its own warm-up.
//
// BENCH_CPU_PROFILE=<file> writes a CPU profile of this process during the
// platform's run only (not the baselines'). BENCH_LOAD_CPU=<cpu> pins the load
// generator to that CPU and this process (the platform and the baselines) to
// the others (Postgres is not pinned). BENCH_ROUNDS=<n> (default 1) measures
// the raw-pg baseline and the platform n times, alternating, and reports each
// round's ratio and their median: on two shared cores one round's ratio moves
// with whatever else the host runs. The CPU column is this process's CPU time
// (user + system) per request answered, warm-up included: what a request costs
// the server whatever the host's load, the figure to compare between revisions.
import { randomBytes } from 'node:crypto';
import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import Hapi from '@hapi/hapi';
import pg from 'pg';
import { createPlatform, type Platform } from '../core/boot.ts';
import { loadConfig } from '../core/config.ts';
import type { LoadOptions, LoadResult } from './lib/load.ts';
import { cpuProfiled } from './lib/profile.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'silent';
const LOAD_SCRIPT = fileURLToPath(new URL('./lib/load.ts', import.meta.url));
const LOAD_CPU = process.env.BENCH_LOAD_CPU;
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));

/** Pins this process away from the load generator's CPU; the CPUs it now runs on. */
function pinServers(): string | undefined {
  if (LOAD_CPU === undefined) return undefined;
  const cpus = os.cpus().map((_, i) => i).filter((i) => String(i) !== LOAD_CPU).join(',');
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
  return cpus;
}

/** A target's figures and the CPU this process spent per request answered (warm-up included), in µs. */
type Measured = LoadResult & { cpuPerRequest: number };

async function load(url: string, headers: Record<string, string> = {}): Promise<Measured> {
  const before = process.cpuUsage();
  const result = await generate(url, headers);
  const spent = process.cpuUsage(before);
  return { ...result, cpuPerRequest: (spent.user + spent.system) / (result.requests + result.warmupRequests) };
}

function generate(url: string, headers: Record<string, string>): Promise<LoadResult> {
  const options: LoadOptions = { url, headers, connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS, seconds: SECONDS };
  const command = [process.execPath, LOAD_SCRIPT, JSON.stringify(options)];
  const [file, ...args] = LOAD_CPU === undefined ? command : ['taskset', '-c', LOAD_CPU, ...command];
  return new Promise((resolve, reject) => {
    execFile(file, args, (err, stdout, stderr) => {
      if (err) return reject(new Error(`load generator failed: ${stderr || err.message}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()!) as LoadResult);
    });
  });
}

async function call(base: string, method: string, path: string, token: string, payload?: unknown, tenant?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  if (tenant) headers['x-tenant-id'] = tenant;
  const response = await fetch(`${base}${path}`, { method, headers, body: payload === undefined ? undefined : JSON.stringify(payload) });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** The platform on DATABASE_URL, with a tenant, its admin's token and one client, made through the API. */
async function startPlatform() {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run through `npm run bench:http`');
  const adminToken = `adm_${randomBytes(16).toString('hex')}`;
  const config = loadConfig({ ...process.env, ADMIN_TOKEN: adminToken, PLATFORM_MASTER_KEY: randomBytes(32).toString('hex'), LOG_LEVEL });
  // Log lines (BENCH_LOG_LEVEL=info) are formatted and then dropped, not written to the terminal.
  const platform: Platform = await createPlatform({ config, port: 0, host: '127.0.0.1', announceAdminToken: () => {}, logStream: { write() {} } });
  await platform.start();
  const base = platform.server.info.uri;
  // The same calls as test/harness.ts tenantWithAdmin, over real HTTP.
  const tenant = `bench-${randomBytes(3).toString('hex')}`;
  await call(base, 'POST', '/api/admin/tenants', adminToken, { id: tenant });
  await call(base, 'POST', '/api/admin/users', adminToken, { sub: `${tenant}-admin`, display_name: 'Bench admin', organizations: [tenant], roles: ['admin'] });
  const { access_token: token } = await call(base, 'POST', `/api/admin/users/${tenant}-admin/tokens`, adminToken);
  const client = await call(base, 'POST', '/api/admin/clients', String(token), { name: 'bench client' }, tenant);
  const path = `/api/admin/clients/${client.id}`;
  const read = await call(base, 'GET', path, String(token), undefined, tenant);
  if (read.id !== client.id) throw new Error(`GET ${path} returned ${JSON.stringify(read)}`);
  return { platform, tenant, clientId: Number(client.id), url: `${base}${path}`, headers: { authorization: `Bearer ${token}`, 'x-tenant-id': tenant } };
}

/** Bare hapi: a static route, and the same client row read through raw pg. */
async function startBaseline(tenant: string) {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
  const server = Hapi.server({ port: 0, host: '127.0.0.1' });
  server.route({ method: 'GET', path: '/static', handler: () => ({ id: 1, client_key: 'ck_static', name: 'static' }) });
  server.route({
    method: 'GET', path: '/row/{id}',
    handler: async (request) => {
      const db = await pool.connect();
      try {
        await db.query(`begin; SET LOCAL ROLE platform_tenant; SET LOCAL app.tenant_id = '${tenant}'`);
        const { rows } = await db.query('SELECT id, client_key, name, created_at FROM clients WHERE id = $1', [Number(request.params.id)]);
        await db.query('commit');
        return rows[0];
      } finally {
        db.release();
      }
    },
  });
  await server.start();
  return { uri: server.info.uri, async stop() { await server.stop(); await pool.end(); } };
}

const profiled = <T>(work: () => Promise<T>): Promise<T> => cpuProfiled(process.env.BENCH_CPU_PROFILE, work);

function row(name: string, r: Measured): string {
  return `${name.padEnd(42)} ${r.rps.toFixed(0).padStart(8)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${r.cpuPerRequest.toFixed(0).padStart(8)} ${String(r.errors + r.non2xx).padStart(7)}`;
}

const serverCpus = pinServers();
const target = await startPlatform();
const baseline = await startBaseline(target.tenant);
const results: [string, Measured][] = [];
const ratios: number[] = [];
try {
  results.push(['baseline: bare hapi, static route', await load(`${baseline.uri}/static`)]);
  for (let round = 1; round <= ROUNDS; round++) {
    const suffix = ROUNDS > 1 ? ` (${round})` : '';
    const rawDb = await load(`${baseline.uri}/row/${target.clientId}`);
    const ours = await profiled(() => load(target.url, target.headers));
    results.push([`bare hapi + pg, same statements${suffix}`, rawDb], [`platform: GET /api/admin/clients/{id}${suffix}`, ours]);
    ratios.push(ours.rps / rawDb.rps);
  }
} finally {
  await baseline.stop();
  await target.platform.stop();
}
const pinning = serverCpus === undefined ? 'unpinned' : `load generator on CPU ${LOAD_CPU}, servers on ${serverCpus}, Postgres unpinned`;
console.log(`node ${process.version}, ${os.cpus().length} cores, ${pinning}, ${CONNECTIONS} connections, ${WARMUP_SECONDS}s warm-up + ${SECONDS}s measured per target, LOG_LEVEL=${LOG_LEVEL}; load average at the end ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}`);
console.log(`${'target'.padEnd(42)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'CPU µs'.padStart(8)} ${'failed'.padStart(7)}`);
for (const [name, result] of results) console.log(row(name, result));
const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)];
if (ROUNDS > 1) console.log(`ratio (platform/bare hapi + pg) req/s per round: ${ratios.map((r) => r.toFixed(2)).join(', ')}`);
console.log(`ratio (platform/bare hapi + pg) req/s${ROUNDS > 1 ? ', median' : ''}: ${median.toFixed(2)}`);
console.log(`ratio (platform/baseline) req/s: ${(results.at(-1)![1].rps / results[0][1].rps).toFixed(2)}`);
if (results.some(([, r]) => r.errors + r.non2xx > 0)) {
  console.error('some requests failed: the figures are not comparable');
  process.exitCode = 1;
}
