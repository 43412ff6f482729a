// Embed benchmark: the public manifest (GET /api/embed/manifest/{client_key}
// with an allowlisted Origin: the in-process cache, the origin check, CORS
// headers, response validation, logging, metrics) against a bare hapi route
// returning the same JSON, measured in the same run; the ratio is the
// headline (target ≥ 0.5). For scale, the platform's own floor: the same JSON
// from a static route the bench adds to the platform (no auth, every server
// extension, logging and metrics as for any route; /health is exempt from
// those). Then embed tokens minted per second
// (POST /api/embed/tokens as the client's embed credential: bearer
// verification, body validation, an HS256 signature per token).
// Run with `npm run bench:embed` (a throwaway Postgres is started); the load
// generator runs in a child process (bench/lib/load.ts), as in bench/http.ts.
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import Hapi from '@hapi/hapi';
import { createPlatform, type Platform } from '../core/boot.ts';
import { loadConfig } from '../core/config.ts';
import type { LoadOptions, LoadResult } from './lib/load.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const LOAD_SCRIPT = fileURLToPath(new URL('./lib/load.ts', import.meta.url));
const MANIFEST = fileURLToPath(new URL('./embed.yaml', import.meta.url));
const ORIGIN = 'https://shop.example';

function load(url: string, extra: Partial<LoadOptions> = {}): Promise<LoadResult> {
  const options: LoadOptions = { url, connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS, seconds: SECONDS, ...extra };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [LOAD_SCRIPT, JSON.stringify(options)], (err, stdout, stderr) => {
      if (err) return reject(new Error(`load generator failed: ${stderr || err.message}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()!) as LoadResult);
    });
  });
}

async function call(base: string, method: string, path: string, init: { token?: string; tenant?: string; body?: unknown; form?: URLSearchParams } = {}) {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.tenant) headers['x-tenant-id'] = init.tenant;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, { method, headers, body: init.form ?? (init.body === undefined ? undefined : JSON.stringify(init.body)) });
  const body = (await response.json()) as Record<string, any>;
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

let floorJson: object = {};

/** The platform with a tenant, an embeddable client and its embed credential's token, made through the API. */
async function startPlatform() {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run through `npm run bench:embed`');
  const adminToken = `adm_${randomBytes(16).toString('hex')}`;
  const config = loadConfig({ ...process.env, ADMIN_TOKEN: adminToken, PLATFORM_MASTER_KEY: randomBytes(32).toString('hex'), PLATFORM_MANIFEST: MANIFEST, LOG_LEVEL: 'silent' });
  const platform: Platform = await createPlatform({ config, port: 0, host: '127.0.0.1', announceAdminToken: () => {}, logStream: { write() {} } });
  // The platform's floor: what any route costs before its own work.
  platform.server.route({ method: 'GET', path: '/bench/static', options: { auth: false, plugins: { platform: { tenant: 'none' } } }, handler: () => floorJson });
  await platform.start();
  const base = platform.server.info.uri;
  const tenant = `bench-${randomBytes(3).toString('hex')}`;
  const admin = { token: adminToken, tenant };
  await call(base, 'POST', '/api/admin/tenants', { token: adminToken, body: { id: tenant } });
  const client = await call(base, 'POST', '/api/admin/clients', { ...admin, body: { name: 'shop' } });
  await call(base, 'PUT', `/api/admin/clients/${client.id}/embed`, { ...admin, body: { enabled: true, allowed_origins: [ORIGIN], theme: { font_family: 'Inter' } } });
  const credential = await call(base, 'POST', `/api/admin/clients/${client.id}/embed-credentials`, admin);
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: credential.service_account_client_id, client_secret: credential.client_secret });
  const { access_token: backendToken } = await call(base, 'POST', '/oauth/token', { form });
  const manifestPath = `/api/embed/manifest/${client.client_key}`;
  const manifest = (await (await fetch(`${base}${manifestPath}`, { headers: { origin: ORIGIN } })).json()) as object;
  floorJson = manifest;
  return { platform, base, manifestPath, manifest, clientKey: String(client.client_key), backendToken: String(backendToken) };
}

/** Bare hapi answering the same JSON on a static route. */
async function startBaseline(manifest: object) {
  const server = Hapi.server({ port: 0, host: '127.0.0.1' });
  server.route({ method: 'GET', path: '/manifest', handler: () => manifest });
  await server.start();
  return server;
}

function row(name: string, r: LoadResult): string {
  return `${name.padEnd(40)} ${r.rps.toFixed(0).padStart(8)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${String(r.errors + r.non2xx).padStart(7)}`;
}

/** The median of some numbers. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const target = await startPlatform();
const baseline = await startBaseline(target.manifest);
const reads: [string, string][] = [
  ['baseline: bare hapi, same JSON', `${baseline.info.uri}/manifest`],
  ['platform: GET /api/embed/manifest/{key}', `${target.base}${target.manifestPath}`],
  ['platform floor: static route, same JSON', `${target.base}/bench/static`],
];
// The machine's speed drifts (its cores are shared): the three reads are
// measured in alternating rounds, so a slow spell falls on all of them, and
// each round gives its own ratio; the median round is the figure.
const rounds: LoadResult[][] = [];
let tokens: LoadResult;
try {
  // Warm-up: each read once (its figures are dropped), so the JIT has settled before the first round.
  for (const [, url] of reads) await load(url, { headers: { origin: ORIGIN }, seconds: 1 });
  for (let round = 0; round < ROUNDS; round += 1) {
    const results: LoadResult[] = [];
    for (const [, url] of reads) results.push(await load(url, { headers: { origin: ORIGIN }, warmupSeconds: 0 }));
    rounds.push(results);
  }
  tokens = await load(`${target.base}/api/embed/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.backendToken}`, origin: ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify({ client_key: target.clientKey, external_user_id: 'bench-user', display_name: 'Bench', expires_in: 600 }),
  });
} finally {
  await baseline.stop();
  await target.platform.stop();
}
console.log(`node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${CONNECTIONS} connections, ${WARMUP_SECONDS}s warm-up, then ${ROUNDS} rounds of ${SECONDS}s per read`);
console.log(`${'target'.padEnd(40)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'failed'.padStart(7)}   (median round; each round's req/s)`);
const byRead = reads.map((_, i) => rounds.map((round) => round[i]!));
const medianOf = (results: LoadResult[]): LoadResult => ({
  requests: results.reduce((sum, r) => sum + r.requests, 0), warmupRequests: results.reduce((sum, r) => sum + r.warmupRequests, 0),
  rps: median(results.map((r) => r.rps)),
  p50: median(results.map((r) => r.p50)), p99: median(results.map((r) => r.p99)),
  errors: results.reduce((sum, r) => sum + r.errors, 0), non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
});
reads.forEach(([name], i) => console.log(`${row(name, medianOf(byRead[i]!))}   ${byRead[i]!.map((r) => r.rps.toFixed(0)).join(' ')}`));
console.log(row('platform: POST /api/embed/tokens', tokens));
const ratios = (a: number, b: number) => rounds.map((round) => round[a]!.rps / round[b]!.rps);
const show = (values: number[]) => `${median(values).toFixed(2)} (rounds: ${values.map((v) => v.toFixed(2)).join(' ')})`;
console.log(`ratio (manifest/baseline) req/s: ${show(ratios(1, 0))} (target >= 0.5)`);
console.log(`ratio (manifest/platform floor) req/s: ${show(ratios(1, 2))}: what the embed route adds to the platform's own per-request cost`);
console.log(`embed tokens minted/s: ${tokens.rps.toFixed(0)}`);
if ([...rounds.flat(), tokens].some((r) => r.errors + r.non2xx > 0)) {
  console.error('some requests failed: the figures are not comparable');
  process.exitCode = 1;
}
