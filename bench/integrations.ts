// Integrations benchmark, two figures:
//
// 1. Import time of a generated 2,000-operation OpenAPI 3.0 spec through
//    POST /api/admin/integrations/openapi/import: the dry-run preview and the
//    real import (parse, $ref resolution, derivation of 2,000 functions,
//    storing them with their definition.created events), each run a few times.
// 2. The overhead of calling an imported function through the core registry,
//    as agents and workflow ACTION steps do (argument validation, argument
//    mapping, the one query that reads the function and the credentials,
//    credential resolution session → client → default with the client's
//    credential found, auth placement, the guarded ofetch call and the result
//    mapping), over a direct ofetch call to the same loopback endpoint with the
//    same header, measured in the same run, calls interleaved one by one so
//    that all see the same machine state. Twice: warm (what the call read is
//    reused, see plugins/integrations/calling/call-row-cache.ts) and cold (a
//    new chat session on every call, so it reads the database). Goal:
//    overhead p50 ≤ 1 ms.
//
// Run with `npm run bench:integrations` (a throwaway Postgres is started).
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { ofetch } from 'ofetch';
import { createPlatform, type Platform } from '../core/boot.ts';
import { loadConfig } from '../core/config.ts';
import { largeSpec } from '../test/fixtures/integrations/large-spec.ts';

const OPERATIONS = Number(process.env.BENCH_OPERATIONS ?? 2000);
const IMPORT_RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 3);
const CALLS = Number(process.env.BENCH_CALLS ?? 3000);
const WARMUP_CALLS = Number(process.env.BENCH_WARMUP_CALLS ?? 500);
const MANIFEST = 'test/fixtures/manifests/integrations.yaml';

async function startTarget(): Promise<{ url: string; close(): Promise<void> }> {
  const body = JSON.stringify({ id: 'r1', name: 'resource', size: 3 });
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      response.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

async function startPlatform(): Promise<{ platform: Platform; token: string; tenant: string }> {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run through `npm run bench:integrations`');
  const adminToken = `adm_${randomBytes(16).toString('hex')}`;
  const config = loadConfig({
    ...process.env, ADMIN_TOKEN: adminToken, PLATFORM_MASTER_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent',
    PLATFORM_MANIFEST: MANIFEST, INTEGRATIONS_ALLOW_PRIVATE_NETWORKS: 'true',
  });
  const platform = await createPlatform({ config, port: 0, host: '127.0.0.1', announceAdminToken: () => {}, logStream: { write() {} } });
  await platform.server.initialize();
  const inject = async (method: string, url: string, token: string, payload?: unknown) => {
    const response = await platform.server.inject({ method, url, headers: { authorization: `Bearer ${token}` }, payload: payload as never });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.payload.slice(0, 500)}`);
    return JSON.parse(response.payload || 'null');
  };
  const tenant = `bench-${randomBytes(3).toString('hex')}`;
  await inject('POST', '/api/admin/tenants', adminToken, { id: tenant });
  await inject('POST', '/api/admin/users', adminToken, { sub: `${tenant}-admin`, display_name: 'Bench', organizations: [tenant], roles: ['admin'] });
  const { access_token: token } = await inject('POST', `/api/admin/users/${tenant}-admin/tokens`, adminToken);
  return { platform, token, tenant };
}

const median = (values: number[]) => percentile(values, 50);
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const target = await startTarget();
const { platform, token, tenant } = await startPlatform();
const inject = async (method: string, url: string, payload?: unknown) => {
  const response = await platform.server.inject({ method, url, headers: { authorization: `Bearer ${token}` }, payload: payload as never });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.payload.slice(0, 500)}`);
  return JSON.parse(response.payload || 'null');
};

// 1. Import time.
const document = largeSpec(OPERATIONS, target.url);
const documentBytes = Buffer.byteLength(JSON.stringify(document));
const previews: number[] = [];
const imports: number[] = [];
for (let run = 0; run < IMPORT_RUNS; run++) {
  let started = performance.now();
  const preview = await inject('POST', '/api/admin/integrations/openapi/import', { spec: document, name: `big${run}`, prefix: `b${run}` });
  previews.push(performance.now() - started);
  if (preview.functions.length !== OPERATIONS) throw new Error(`preview listed ${preview.functions.length} functions`);
  started = performance.now();
  const done = await inject('POST', '/api/admin/integrations/openapi/import', { spec: document, name: `big${run}`, prefix: `b${run}`, dry_run: false, auth_value: 'default-token' });
  imports.push(performance.now() - started);
  if (done.spec.function_count !== OPERATIONS) throw new Error(`imported ${done.spec.function_count} functions`);
}

// 2. Call overhead: a client with its own credential for the spec (resolution finds it at the second level).
const client = await inject('POST', '/api/admin/clients', { name: 'bench client' });
await inject('POST', `/clients/${client.id}/credentials`, { service_name: 'big0', value: 'client-token', header: 'Authorization' });
const core = platform.core;
const context = {
  tenantId: tenant,
  principal: { kind: 'service' as const, sub: 'bench-agent' },
  withTenant: core.withTenant,
  logger: core.logger,
  executionContext: { type: 'chat_session', id: 'bench-session' },
  clientId: Number(client.id),
};
const viaRegistry = async (sessionId = 'bench-session') => {
  const result = (await core.functions.call('b0_get_resource0', { id: 'r1' }, { ...context, executionContext: { type: 'chat_session', id: sessionId } })) as {
    status: number; credential: string;
  };
  if (result.status !== 200 || result.credential !== 'client') throw new Error(`call: ${JSON.stringify(result)}`);
};
// A new session on every call: nothing cached applies, so the call reads the
// function and the credentials from the database (one tenant transaction).
let session = 0;
const viaRegistryCold = () => viaRegistry(`cold-${session++}`);
const direct = async () => {
  const body = await ofetch<{ id: string }>(`${target.url}/resource0/r1`, { headers: { authorization: 'Bearer client-token', accept: 'application/json' } });
  if (body.id !== 'r1') throw new Error('direct call failed');
};
const targets = [direct, () => viaRegistry(), viaRegistryCold];
for (let i = 0; i < WARMUP_CALLS; i++) for (const fn of targets) await fn();
const times: number[][] = targets.map(() => []);
for (let i = 0; i < CALLS; i++) {
  // Rotate which goes first, so that none always sees a warmer connection.
  for (let k = 0; k < targets.length; k++) {
    const index = (i + k) % targets.length;
    const started = performance.now();
    await targets[index]();
    times[index].push(performance.now() - started);
  }
}
const [directTimes, warmTimes, coldTimes] = times;
const paired = (own: number[]) => own.map((value, i) => value - directTimes[i]);

await platform.stop();
await target.close();

const ms = (value: number) => value.toFixed(3).padStart(9);
console.log(`node ${process.version}, ${os.cpus().length} cores; spec: ${OPERATIONS} operations, ${(documentBytes / 1024).toFixed(0)} KiB JSON`);
console.log(`import preview (dry run), ${IMPORT_RUNS} runs: median ${median(previews).toFixed(0)} ms (${previews.map((v) => v.toFixed(0)).join(', ')})`);
console.log(`import (no dry run),      ${IMPORT_RUNS} runs: median ${median(imports).toFixed(0)} ms (${imports.map((v) => v.toFixed(0)).join(', ')})`);
console.log(`calls: ${CALLS} of each, interleaved, after ${WARMUP_CALLS} warm-up rounds`);
console.log(`${'target'.padEnd(52)} ${'p50 ms'.padStart(9)} ${'p95 ms'.padStart(9)} ${'p99 ms'.padStart(9)}`);
const line = (name: string, values: number[]) =>
  console.log(`${name.padEnd(52)} ${ms(median(values))} ${ms(percentile(values, 95))} ${ms(percentile(values, 99))}`);
line('direct ofetch (baseline)', directTimes);
line('imported function, warm (definition cached)', warmTimes);
line('imported function, cold (reads the database)', coldTimes);
line('overhead warm (paired difference)', paired(warmTimes));
line('overhead cold (paired difference)', paired(coldTimes));
const overhead = median(paired(warmTimes));
console.log(`overhead p50: warm ${overhead.toFixed(3)} ms (goal ≤ 1 ms: ${overhead <= 1 ? 'met' : 'NOT met'}), cold ${median(paired(coldTimes)).toFixed(3)} ms; `
  + `ratio imported/direct p50: warm ${(median(warmTimes) / median(directTimes)).toFixed(2)}, cold ${(median(coldTimes) / median(directTimes)).toFixed(2)}`);
