// Duplicate-check benchmark (goal: p95 ≤ 20 ms with 100,000 occurrences in
// the tenant). Loads 100,000 occurrences of 5 types into one tenant,
// spread over a 22 × 17 km city with a hot spot (10 % of them within about
// 300 m), created over the last 60 days, a third of them in final states;
// then measures POST /api/occurrences/check_duplicates (the whole public path:
// rate limit, tenant, a tenant transaction, the box query on the index,
// trigram and full-text scoring, haversine) at random points of the city and
// of the hot spot, sequentially, beside the baseline measured in the same
// run: GET /api/occurrence-types/{id} (the same public path reading one row
// by primary key). Prints p50/p95/p99 and the ratios, the query plan, and
// the candidates query's own execution time at the hot spot (EXPLAIN ANALYZE).
// Run with `npm run bench:occurrences`.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { sql } from 'kysely';
import { createPlatform, type Platform } from '../core/boot.ts';
import { loadConfig } from '../core/config.ts';

const OCCURRENCES = Number(process.env.BENCH_OCCURRENCES ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 1000);
const WARMUP = 100;
const MANIFEST = fileURLToPath(new URL('./occurrences.yaml', import.meta.url));
const TENANT = 'bench-occurrences';
const CITY = { lat: 38.70, lon: -9.25, dLat: 0.15, dLon: 0.25 };
const HOT = { lat: 38.7101, lon: -9.1366, dLat: 0.003, dLon: 0.004 };
const WORDS = ['pothole', 'streetlight', 'graffiti', 'bench', 'bin', 'overflowing', 'broken', 'deep', 'dark', 'noise', 'tree', 'fallen', 'water', 'leak', 'sidewalk', 'crack'];

async function call(base: string, method: string, path: string, headers: Record<string, string>, payload?: unknown) {
  const all = { ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) };
  const response = await fetch(`${base}${path}`, { method, headers: all, body: payload === undefined ? undefined : JSON.stringify(payload) });
  const answer = (await response.json()) as Record<string, any>;
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

async function prepare(platform: Platform, base: string, adminToken: string) {
  const admin = { authorization: `Bearer ${adminToken}` };
  await call(base, 'POST', '/api/admin/tenants', admin, { id: TENANT });
  await call(base, 'POST', '/api/admin/users', admin, { sub: `${TENANT}-admin`, display_name: 'Bench', organizations: [TENANT], roles: ['admin'] });
  const { access_token: token } = await call(base, 'POST', `/api/admin/users/${TENANT}-admin/tokens`, admin);
  const types: number[] = [];
  for (let i = 0; i < 5; i++) {
    const type = await call(base, 'POST', '/api/backoffice/occurrence-types', { authorization: `Bearer ${token}` }, {
      name: `Type ${i}`, code: `type-${i}`, duplicate_policy: 'warn', form_schema: { version: 'v0', dynamic_fields: [] },
    });
    types.push(type.id);
  }
  // Reading the states seeds them; the rows are written directly (the API would take minutes).
  await call(base, 'GET', '/api/backoffice/states', { authorization: `Bearer ${token}` });
  const started = Date.now();
  await platform.core.withTenant(TENANT, async (trx) => {
    await sql`
      INSERT INTO occurrences (tenant_id, reference, type_id, title, description, latitude, longitude, state, source, created_at, updated_at)
      SELECT ${TENANT}, 'OC-2026-' || lpad(g::text, 6, '0'), (${sql.val(types)}::bigint[])[1 + (g / 10) % 5],
             w[1 + g % 16] || ' ' || w[1 + (g / 16) % 16], w[1 + (g / 7) % 16] || ' ' || w[1 + (g / 3) % 16] || ' near number ' || (g % 500),
             CASE WHEN g % 10 = 0 THEN ${HOT.lat} + random() * ${HOT.dLat} ELSE ${CITY.lat} + random() * ${CITY.dLat} END,
             CASE WHEN g % 10 = 0 THEN ${HOT.lon} + random() * ${HOT.dLon} ELSE ${CITY.lon} + random() * ${CITY.dLon} END,
             (ARRAY['submitted','triaged','in_progress','resolved','rejected','submitted'])[1 + g % 6], 'public',
             now() - random() * interval '60 days', now()
        FROM generate_series(1, ${OCCURRENCES}) AS g, (SELECT ${sql.val(WORDS)}::text[] AS w) AS words`.execute(trx);
  });
  await platform.core.pool.query('ANALYZE occurrences');
  const { rows } = await platform.core.pool.query('SELECT count(*)::int AS n FROM occurrences WHERE tenant_id = $1', [TENANT]);
  if (rows[0].n !== OCCURRENCES) throw new Error(`${rows[0].n} occurrences written, not ${OCCURRENCES}`);
  return { token: token as string, types, loadSeconds: (Date.now() - started) / 1000 };
}

function point(type: number, area: typeof CITY) {
  return {
    title: `${WORDS[Math.floor(Math.random() * 16)]} ${WORDS[Math.floor(Math.random() * 16)]}`, description: 'reported during the benchmark',
    occurrence_type: type, latitude: area.lat + Math.random() * area.dLat, longitude: area.lon + Math.random() * area.dLon,
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timed(samples: number, run: () => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99) };
}

async function measure() {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run through `npm run bench:occurrences`');
  const adminToken = `adm_${randomBytes(16).toString('hex')}`;
  const config = loadConfig({
    ...process.env, ADMIN_TOKEN: adminToken, PLATFORM_MASTER_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent', PLATFORM_MANIFEST: MANIFEST,
  });
  const platform = await createPlatform({ config, port: 0, host: '127.0.0.1', announceAdminToken: () => {} });
  await platform.start();
  try {
    const base = platform.server.info.uri;
    const { types, loadSeconds } = await prepare(platform, base, adminToken);
    const pub = { 'x-tenant-id': TENANT };
    let found = 0;
    const check = (area: typeof CITY) => async () => {
      const answer = await call(base, 'POST', '/api/occurrences/check_duplicates', pub, point(types[Math.floor(Math.random() * 5)], area));
      found += answer.similar_reports.length;
    };
    const baseline = await timed(SAMPLES, () => call(base, 'GET', `/api/occurrence-types/${types[0]}`, pub));
    const city = await timed(SAMPLES, check(CITY));
    const cityFound = found;
    found = 0;
    const hot = await timed(SAMPLES, check(HOT));
    const plan = await platform.core.withTenant(TENANT, async (trx) => (await sql<{ 'QUERY PLAN': string }>`
      EXPLAIN SELECT id FROM occurrences WHERE type_id = ${types[0]} AND latitude BETWEEN 38.71 AND 38.7109
        AND longitude BETWEEN -9.137 AND -9.1358 AND created_at >= now() - interval '30 days'`.execute(trx)).rows.map((r) => r['QUERY PLAN']));
    const hotQuery = await platform.core.withTenant(TENANT, async (trx) => (await sql<{ 'QUERY PLAN': string }>`
      EXPLAIN (ANALYZE, BUFFERS) SELECT id, similarity(search_text, 'deep pothole') AS s, ts_rank(search_vector, 'deep | pothole'::tsquery, 32) AS r
        FROM occurrences WHERE type_id = ${types[0]} AND latitude BETWEEN 38.7115 AND 38.7124
        AND longitude BETWEEN -9.1350 AND -9.1338 AND created_at >= now() - interval '30 days'
        AND state <> ALL(ARRAY['resolved','rejected','duplicate']) LIMIT 200`.execute(trx)).rows.map((r) => r['QUERY PLAN']));
    return { hotQuery, baseline, city, hot, cityFound: cityFound / (SAMPLES + WARMUP), hotFound: found / (SAMPLES + WARMUP), loadSeconds, plan };
  } finally {
    await platform.stop();
  }
}

const { hotQuery, baseline, city, hot, cityFound, hotFound, loadSeconds, plan } = await measure();
const line = (name: string, r: { p50: number; p95: number; p99: number }) =>
  `${name.padEnd(52)} ${r.p50.toFixed(2).padStart(8)} ${r.p95.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${(r.p95 / baseline.p95).toFixed(2).padStart(8)}`;
console.log(`node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log(`${OCCURRENCES} occurrences in the tenant (5 types, written in ${loadSeconds.toFixed(1)} s), ${SAMPLES} sequential requests per target after ${WARMUP} warm-up`);
console.log(`${'target'.padEnd(52)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'p95/base'.padStart(8)}`);
console.log(line('baseline: GET /api/occurrence-types/{id} (public)', baseline));
console.log(line(`check_duplicates, city (${cityFound.toFixed(1)} similar on average)`, city));
console.log(line(`check_duplicates, hot spot (${hotFound.toFixed(1)} similar on average)`, hot));
console.log(`box query plan: ${plan.join(' | ')}`);
console.log(`the candidates query at the hot spot, in the database alone (EXPLAIN ANALYZE):\n  ${hotQuery.join('\n  ')}`);
const target = 20;
for (const [name, r] of [['city', city], ['hot spot', hot]] as const) {
  if (r.p95 > target) console.error(`NOT MET: ${name} p95 ${r.p95.toFixed(2)} ms > ${target} ms`);
}
