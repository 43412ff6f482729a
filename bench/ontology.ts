// Ontology benchmark: entities synced/s from a backing dataset of BENCH_ROWS
// (1,000,000) lake rows through the API (POST sync to the exact run being
// terminal: a pg-boss job, the set-based upsert from the lake's as-of SQL,
// the stale-entity anti-join), first sync and a 1%-changed re-sync, against a
// plain `INSERT … SELECT … ON CONFLICT` of the same rows into a plain table of
// the same shape measured in the same run (target ratio >= 0.5); then the
// latency of a skipped sync (unchanged snapshot and spec), trigger to terminal.
// Run with `npm run bench:ontology` (a throwaway Postgres is started).
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startTestPlatform, tenantWithAdmin, until } from '../test/harness.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SKIPS = Number(process.env.BENCH_SKIPS ?? 20);
const DATASET = 'raw.bench.lights';
const teardowns: (() => unknown)[] = [];
const tap = { teardown: (fn: () => unknown) => void teardowns.push(fn) };
const round = (n: number, digits = 1) => Number(n.toFixed(digits));

try {
  const started = performance.now();
  const tp = await startTestPlatform(tap, { listen: true, env: { LOG_LEVEL: 'silent', JOBS_POLL_INTERVAL_MS: '50' } });
  const { token } = await tenantWithAdmin(tp, 'bench');
  const api = async (method: string, url: string, payload?: unknown) => {
    const response = await tp.request({ method, url, token, tenant: 'bench', payload });
    if (response.status >= 400) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const lake = tp.platform.server.plugins.lakehouse.api;
  await lake.ensureDataset('bench', {
    datasetId: DATASET, primaryKey: ['id'], producer: { kind: 'source_stream', id: 'bench' },
    columns: [{ name: 'id', type: 'text' }, { name: 'label', type: 'text' }, { name: 'watts', type: 'bigint' }, { name: 'installed', type: 'date' }],
  });
  const writeRows = (suffix: string) => lake.write('bench', DATASET, {
    mode: 'overwrite', primaryKey: ['id'], uniqueKeys: true,
    source: {
      kind: 'query', properties: ['id', 'label', 'watts', 'installed'],
      sql: `SELECT 'L' || g, 'street light ' || g || CASE WHEN g % 100 = 0 THEN '${suffix}' ELSE '' END, (g % 250)::bigint, date '2020-01-01' + (g % 1000) FROM generate_series(1, ${ROWS}) g`,
    },
  });
  await writeRows('');
  await api('POST', '/api/v1/ontology/entity-types', {
    code: 'street_light', name: 'Street light', keys: ['light_id'],
    properties: { type: 'object', properties: { light_id: { type: 'string' }, name: { type: 'string' }, watts: { type: 'integer' }, installed: { type: 'string', format: 'date' } } },
  });
  const backing = await api('POST', '/api/v1/backing-datasets', {
    name: 'lights', dataset_id: DATASET, entity_type: 'street_light', key_columns: ['id'],
    mappings: [{ column: 'id', property: 'light_id' }, { column: 'label', property: 'name' }, { column: 'watts', property: 'watts' }, { column: 'installed', property: 'installed' }],
  });
  const sync = async () => {
    const start = performance.now();
    const trigger = await api('POST', `/api/v1/backing-datasets/${backing.id}/sync`);
    const run = await until(async () => {
      const exact = await api('GET', `/api/v1/backing-datasets/${backing.id}/sync-history/${trigger.run_id}`);
      return exact.is_terminal ? exact : undefined;
    }, 'the sync', 3_600_000);
    if (run.status === 'failed') throw new Error(`sync failed: ${run.error}`);
    return { seconds: (performance.now() - start) / 1000, run };
  };

  // The baseline: the same rows (the lake's as-of SELECT) into a plain table of the same shape, one INSERT … ON CONFLICT.
  const client = new pg.Client({ connectionString: tp.databaseUrl });
  await client.connect();
  teardowns.push(() => client.end());
  await client.query(`CREATE TABLE bench_entities (tenant_id text, entity_type text, key text, key_values jsonb, properties jsonb, source_row_key text, PRIMARY KEY (tenant_id, entity_type, key))`);
  const baseline = async () => {
    const source = lake.asOf(await lake.readable('bench', DATASET));
    const start = performance.now();
    await client.query(`INSERT INTO bench_entities AS e SELECT 'bench', 'street_light', jsonb_build_array(s.id)::text, jsonb_build_object('light_id', s.id),
        jsonb_build_object('light_id', s.id, 'name', s.label, 'watts', s.watts, 'installed', s.installed), jsonb_build_array(s.id)::text
      FROM (${source}) s
      ON CONFLICT (tenant_id, entity_type, key) DO UPDATE SET properties = excluded.properties WHERE e.properties IS DISTINCT FROM excluded.properties`);
    return (performance.now() - start) / 1000;
  };

  const first = await sync();
  const firstBaseline = await baseline();
  await writeRows(' (changed)');
  const resync = await sync();
  const resyncBaseline = await baseline();
  const skips: number[] = [];
  for (let i = 0; i < SKIPS; i++) {
    const skip = await sync();
    if (skip.run.status !== 'skipped') throw new Error(`expected skipped, got ${skip.run.status}`);
    skips.push(skip.seconds * 1000);
  }
  skips.sort((a, b) => a - b);
  const pct = (p: number) => round(skips[Math.min(skips.length - 1, Math.floor((p / 100) * skips.length))]!, 1);
  const rate = (rows: number, s: number) => Math.round(rows / s);

  console.log(`ontology benchmark: ${ROWS} lake rows (text key, text, bigint, date) → street_light entities`);
  console.log(`1. first sync through the API (POST sync to exact run terminal): ${round(first.seconds, 2)} s, ${rate(ROWS, first.seconds)} entities/s (rows_synced ${first.run.rows_synced})`);
  console.log(`   baseline plain INSERT … SELECT … ON CONFLICT into an empty table: ${round(firstBaseline, 2)} s, ${rate(ROWS, firstBaseline)} rows/s; ratio ${round(firstBaseline / first.seconds, 2)} (target >= 0.5)`);
  console.log(`2. 1%-changed re-sync: ${round(resync.seconds, 2)} s, ${rate(ROWS, resync.seconds)} rows/s read, rows_synced ${resync.run.rows_synced}`);
  console.log(`   baseline plain INSERT … ON CONFLICT DO UPDATE (changed rows only) over the same rows: ${round(resyncBaseline, 2)} s; ratio ${round(resyncBaseline / resync.seconds, 2)} (target >= 0.5)`);
  console.log(`3. skipped sync (unchanged snapshot and spec), trigger to terminal, ${SKIPS} runs: p50 ${pct(50)} ms, p95 ${pct(95)} ms`);
  console.log(`total ${round((performance.now() - started) / 1000)} s`);
} finally {
  for (const fn of teardowns.reverse()) await fn();
}
