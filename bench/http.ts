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
// platform's run only (not the baselines').
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
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

function load(url: string, headers: Record<string, string> = {}): Promise<LoadResult> {
  const options: LoadOptions = { url, headers, connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS, seconds: SECONDS };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [LOAD_SCRIPT, JSON.stringify(options)], (err, stdout, stderr) => {
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

function row(name: string, r: LoadResult): string {
  return `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${String(r.errors + r.non2xx).padStart(7)}`;
}

const target = await startPlatform();
const baseline = await startBaseline(target.tenant);
let results: [string, LoadResult][];
try {
  results = [
    ['baseline: bare hapi, static route', await load(`${baseline.uri}/static`)],
    ['bare hapi + pg, same statements', await load(`${baseline.uri}/row/${target.clientId}`)],
    ['platform: GET /api/admin/clients/{id}', await profiled(() => load(target.url, target.headers))],
  ];
} finally {
  await baseline.stop();
  await target.platform.stop();
}
console.log(`node ${process.version}, ${os.cpus().length} cores, ${CONNECTIONS} connections, ${WARMUP_SECONDS}s warm-up + ${SECONDS}s measured per target, LOG_LEVEL=${LOG_LEVEL}; load average at the end ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}`);
console.log(`${'target'.padEnd(34)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'failed'.padStart(7)}`);
for (const [name, result] of results) console.log(row(name, result));
const [[, base], [, rawDb], [, ours]] = results;
console.log(`ratio (platform/bare hapi + pg) req/s: ${(ours.rps / rawDb.rps).toFixed(2)}`);
console.log(`ratio (platform/baseline) req/s: ${(ours.rps / base.rps).toFixed(2)}`);
if (results.some(([, r]) => r.errors + r.non2xx > 0)) {
  console.error('some requests failed: the figures are not comparable');
  process.exitCode = 1;
}
