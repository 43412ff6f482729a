// Form submission benchmark: submissions/s and latency of
// POST /api/forms/use-cases/{id}/submissions through the whole platform — user
// JWT, Form.io validation of the payload against the pinned version (with a
// linear-time pattern, a select, a conditional), then in one tenant
// transaction the immutable submission, four bindings (TO_INT, LOOKUP, two
// GEO_PARSE into a point), the example asset target's hydrate writing its row,
// the attempt and two events — beside a bare hapi server answering the same
// POST with a static 201, in the same run. Also Form.io validation alone
// (validateAgainstForm, in process). Run with `npm run bench:forms`.
// After the run the figures are verified: every 2xx left one submission and
// one asset in Postgres.
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import Hapi from '@hapi/hapi';
import { sql } from 'kysely';
import { createPlatform, type Platform } from '../core/boot.ts';
import { loadConfig } from '../core/config.ts';
import type { FormsApi } from '../plugins/forms/api.ts';
import type { LoadOptions, LoadResult } from './lib/load.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const VALIDATIONS = Number(process.env.BENCH_VALIDATIONS ?? 5000);
const LOAD_SCRIPT = fileURLToPath(new URL('./lib/load.ts', import.meta.url));
const MANIFEST = fileURLToPath(new URL('./forms.yaml', import.meta.url));
const TENANT = 'bench-forms';

const FORM = {
  display: 'form',
  components: [
    { type: 'textfield', key: 'title', label: 'Title', input: true, validate: { required: true, maxLength: 100 } },
    { type: 'textfield', key: 'serialText', label: 'Serial', input: true, validate: { pattern: '[0-9]{1,6}' } },
    { type: 'select', key: 'state', label: 'State', input: true, dataSrc: 'values', data: { values: [{ label: 'OK', value: 'ok' }, { label: 'Broken', value: 'broken' }] } },
    { type: 'checkbox', key: 'hasLamp', label: 'Has a lamp', input: true },
    { type: 'textfield', key: 'lampType', label: 'Lamp type', input: true, validate: { required: true }, conditional: { show: true, when: 'hasLamp', eq: 'true' } },
    { type: 'textfield', key: 'coords', label: 'Coordinates', input: true },
    { type: 'textarea', key: 'notes', label: 'Notes', input: true },
  ],
};
const PAYLOAD = { title: 'Bench by the river', state: 'broken', hasLamp: false, coords: '41.1496, -8.6109', notes: 'The backrest is missing two slats.' };
const BINDINGS = [
  { source_field_path: 'state', target_field_path: 'condition', transform: 'LOOKUP', transform_params: { table: { ok: 'good', broken: 'needs repair' } } },
  { source_field_path: 'coords', target_field_path: 'location', transform: 'GEO_PARSE', transform_params: { component: 'latitude' } },
  { source_field_path: 'coords', target_field_path: 'location', transform: 'GEO_PARSE', transform_params: { component: 'longitude' } },
];

function load(options: Omit<LoadOptions, 'connections' | 'warmupSeconds' | 'seconds'>): Promise<LoadResult> {
  const all: LoadOptions = { ...options, connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS, seconds: SECONDS };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [LOAD_SCRIPT, JSON.stringify(all)], { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`load generator failed: ${stderr || err.message}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()!) as LoadResult);
    });
  });
}

const body = JSON.stringify({ payload: PAYLOAD });

async function measureBaseline(): Promise<LoadResult> {
  const server = Hapi.server({ port: 0, host: '127.0.0.1' });
  server.route({ method: 'POST', path: '/submit', handler: (_request, h) => h.response({ id: 'static' }).code(201) });
  await server.start();
  try {
    return await load({ url: `${server.info.uri}/submit`, method: 'POST', body, headers: { 'content-type': 'application/json' } });
  } finally {
    await server.stop();
  }
}

async function call(base: string, method: string, path: string, token: string, payload?: unknown, tenant?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  if (tenant) headers['x-tenant-id'] = tenant;
  const response = await fetch(`${base}${path}`, { method, headers, body: payload === undefined ? undefined : JSON.stringify(payload) });
  const answer = (await response.json()) as Record<string, any>;
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** A tenant, its admin, the form, a use case on the asset target with bindings: over the REST API. */
async function prepare(base: string, adminToken: string) {
  await call(base, 'POST', '/api/admin/tenants', adminToken, { id: TENANT });
  await call(base, 'POST', '/api/admin/users', adminToken, { sub: `${TENANT}-admin`, display_name: 'Bench', organizations: [TENANT], roles: ['admin'] });
  const { access_token: token } = await call(base, 'POST', `/api/admin/users/${TENANT}-admin/tokens`, adminToken);
  const definition = await call(base, 'POST', '/api/admin/forms/definitions', token, { name: 'asset report', schema: FORM });
  const useCase = await call(base, 'POST', '/api/admin/forms/use-cases', token, {
    name: 'bench', form_definition_id: definition.id, target_model: 'assets.Asset', target_config: { category: 'bench' }, access: 'authenticated',
  });
  await call(base, 'PUT', `/api/admin/forms/use-cases/${useCase.id}/bindings`, token, { bindings: BINDINGS });
  return { token: token as string, useCaseId: useCase.id as string };
}

async function stored(platform: Platform) {
  return platform.core.withTenant(TENANT, async (trx) => {
    const { rows } = await sql<{ submissions: number; assets: number }>`
      SELECT (SELECT count(*)::int FROM forms_submissions) AS submissions, (SELECT count(*)::int FROM assets) AS assets`.execute(trx);
    return rows[0];
  });
}

function validationRate(forms: FormsApi): number {
  for (let i = 0; i < 200; i++) forms.validateAgainstForm(FORM, PAYLOAD);
  const started = process.hrtime.bigint();
  for (let i = 0; i < VALIDATIONS; i++) forms.validateAgainstForm(FORM, PAYLOAD);
  return VALIDATIONS / (Number(process.hrtime.bigint() - started) / 1e9);
}

async function measure() {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run through `npm run bench:forms`');
  const adminToken = `adm_${randomBytes(16).toString('hex')}`;
  const config = loadConfig({
    ...process.env, ADMIN_TOKEN: adminToken, PLATFORM_MASTER_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent', PLATFORM_MANIFEST: MANIFEST,
  });
  const platform = await createPlatform({ config, port: 0, host: '127.0.0.1', announceAdminToken: () => {} });
  await platform.start();
  try {
    const base = platform.server.info.uri;
    const { token, useCaseId } = await prepare(base, adminToken);
    const forms = (platform.server.plugins as unknown as { forms: { api: FormsApi } }).forms.api;
    const validations = validationRate(forms);
    const baseline = await measureBaseline();
    const result = await load({
      url: `${base}/api/forms/use-cases/${useCaseId}/submissions`, method: 'POST', body,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    });
    return { baseline, result, validations, rows: await stored(platform), rss: process.memoryUsage().rss };
  } finally {
    await platform.stop();
  }
}

function row(name: string, r: LoadResult): string {
  return `${name.padEnd(40)} ${r.rps.toFixed(0).padStart(8)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${String(r.errors + r.non2xx).padStart(7)}`;
}

const { baseline, result, validations, rows, rss } = await measure();
console.log(`node ${process.version}, ${os.cpus().length} cores, ${CONNECTIONS} connections, ${WARMUP_SECONDS}s warm-up + ${SECONDS}s measured per target`);
console.log(`${'target'.padEnd(40)} ${'2xx/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'failed'.padStart(7)}`);
console.log(row('baseline: bare hapi, static 201', baseline));
console.log(row('platform: submission + hydration', result));
console.log(`ratio (platform/baseline) req/s: ${(result.rps / baseline.rps).toFixed(3)}`);
console.log(`Form.io validation alone (in process): ${validations.toFixed(0)} payloads/s`);
console.log(`server RSS after the run: ${(rss / 1024 / 1024).toFixed(0)} MB`);
// The warm-up's submissions are stored too; the answers of requests cut off at
// the end of a window may be uncounted (at most one per connection per window).
const counted = result.requests;
console.log(`verified: ${rows.submissions} submissions and ${rows.assets} assets stored (${result.requests} measured requests, plus the warm-up)`);
const failures: string[] = [];
if (baseline.errors + baseline.non2xx + result.errors + result.non2xx > 0) failures.push('some requests failed');
if (rows.submissions !== rows.assets) failures.push('submissions and assets differ: a hydration was not atomic');
if (rows.submissions < counted) failures.push('fewer submissions stored than answered');
for (const failure of failures) console.error(`NOT VERIFIED: ${failure}`);
if (failures.length) process.exitCode = 1;
