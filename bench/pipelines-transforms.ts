// Transforms benchmark: (1) materializing a SQL transform over BENCH_ROWS
// (1,000,000) rows into a derived dataset through api.materialize (parse,
// allowlist, read rule, describe, the lakehouse write as the tenant role with
// its snapshot bookkeeping) against `CREATE TABLE AS SELECT` of the same
// query over the same snapshot run directly on the platform's connection, in
// the same run, alternated, best of 2 each (target overhead <= 1.25x); (2)
// api.reviewSql p50/p95 on a 200-line query against libpg-query's bare parse
// of it. Run with `npm run bench:pipelines-transforms` (a throwaway Postgres
// is started). BENCH_ROWS, BENCH_REVIEWS (200) tune it.
import { performance } from 'node:perf_hooks';
import { parse } from 'libpg-query';
import pg from 'pg';
import type { LakehouseApi } from '../plugins/lakehouse/api.ts';
import type { TransformsApi } from '../plugins/pipelines-transforms/api.ts';
import { startTestPlatform, tenantWithAdmin } from '../test/harness.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const REVIEWS = Number(process.env.BENCH_REVIEWS ?? 200);
const teardowns: (() => unknown)[] = [];
const tap = { teardown: (fn: () => unknown) => void teardowns.push(fn) };
const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const TRANSFORM_SQL = "SELECT id, upper(name) AS name, amount * 2 AS doubled, amount > 500 AS large FROM raw.bench.orders WHERE id % 10 <> 0 OR amount >= 0";

function percentile(sorted: number[], p: number): number {
  return round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!, 2);
}

/** A 200-line query: a CTE, a long select list, joins, a filter. */
function longQuery(): string {
  const lines = ['WITH recent AS (', '  SELECT id, name, amount', '  FROM raw.bench.orders', '  WHERE amount > 10', ')', 'SELECT'];
  for (let i = 0; lines.length < 192; i++) lines.push(`  round(o.amount * ${i + 1}, 2) AS amount_${i},`);
  lines.push('  o.id', 'FROM raw.bench.orders o', 'JOIN recent r ON r.id = o.id', 'WHERE o.amount BETWEEN 1 AND 900', '  AND o.name LIKE \'order%\'', 'ORDER BY o.id', 'LIMIT 1000');
  while (lines.length < 200) lines.splice(6, 0, '  -- a comment line');
  return lines.join('\n');
}

try {
  const started = performance.now();
  const tp = await startTestPlatform(tap, { env: { LOG_LEVEL: 'silent' } });
  await tenantWithAdmin(tp, 'bench');
  const lake: LakehouseApi = tp.platform.server.plugins.lakehouse.api;
  const transforms: TransformsApi = tp.platform.server.plugins['pipelines-transforms'].api;
  await lake.ensureDataset('bench', {
    datasetId: 'raw.bench.orders', columns: [{ name: 'id', type: 'bigint' }, { name: 'name', type: 'text' }, { name: 'amount', type: 'numeric' }],
    primaryKey: ['id'], producer: { kind: 'source_stream', id: 'bench' },
  });
  await lake.write('bench', 'raw.bench.orders', {
    mode: 'overwrite', uniqueKeys: true,
    source: { kind: 'query', sql: `SELECT g, 'order ' || g, (g % 100000) / 100.0 FROM generate_series(1, ${ROWS}) g`, properties: ['id', 'name', 'amount'] },
  });
  const db = new pg.Client({ connectionString: tp.databaseUrl });
  await db.connect();
  teardowns.push(() => db.end());
  // Settled before either side reads it: hint bits and the visibility map set, statistics taken (the first reader
  // of a fresh load otherwise pays for them, and which side comes first would decide the ratio).
  await db.query('VACUUM ANALYZE raw."bench.orders"');
  const source = await lake.readable('bench', 'raw.bench.orders');
  const direct = TRANSFORM_SQL.replace('raw.bench.orders', `(${lake.asOf(source)}) AS orders`);

  const ctas = async (n: number) => {
    const start = performance.now();
    await db.query(`CREATE TABLE bench_ctas_${n} AS ${direct}`);
    const seconds = (performance.now() - start) / 1000;
    await db.query(`DROP TABLE bench_ctas_${n}`);
    return seconds;
  };
  const materialize = async (n: number) => {
    const start = performance.now();
    const result = await transforms.materialize('bench', { sql: TRANSFORM_SQL, namespace: 'derived', table: `doubled_${n}`, materialization: 'table', producer: { kind: 'transform', id: 'bench' } });
    if (result.rows !== ROWS) throw new Error(`materialized ${result.rows} rows`);
    return (performance.now() - start) / 1000;
  };
  const baseline = Math.min(await ctas(1), ...[await ctas(2)]);
  const first = await materialize(1);
  const baselineAgain = await ctas(3);
  const second = await materialize(2);
  const ctasSeconds = Math.min(baseline, baselineAgain);
  const materializeSeconds = Math.min(first, second);

  const query = longQuery();
  const analysis = await transforms.reviewSql('bench', query);
  if (!analysis.analysis.ok) throw new Error(JSON.stringify(analysis.analysis.errors));
  const reviews: number[] = [];
  const parses: number[] = [];
  for (let i = 0; i < REVIEWS; i++) {
    let start = performance.now();
    await parse(query);
    parses.push(performance.now() - start);
    start = performance.now();
    await transforms.reviewSql('bench', query);
    reviews.push(performance.now() - start);
  }
  reviews.sort((a, b) => a - b);
  parses.sort((a, b) => a - b);

  console.log(`pipelines-transforms benchmark: ${ROWS} input rows (bigint, text, numeric), ${ROWS} output rows`);
  console.log(`1. materialize (api.materialize, table, snapshot bookkeeping included): ${round(materializeSeconds)} s (best of 2; ${round(first)} s, ${round(second)} s), ${Math.round(ROWS / materializeSeconds)} rows/s`);
  console.log(`   baseline CREATE TABLE AS SELECT of the same query over the same snapshot: ${round(ctasSeconds)} s (best of 3)`);
  console.log(`   overhead materialize/CTAS: ${round(materializeSeconds / ctasSeconds)}x (target <= 1.25x)`);
  console.log(`2. reviewSql on a ${query.split('\n').length}-line query (${REVIEWS} calls: parse, rules, read rule, describe, lint): p50 ${percentile(reviews, 50)} ms, p95 ${percentile(reviews, 95)} ms`);
  console.log(`   baseline libpg-query parse alone: p50 ${percentile(parses, 50)} ms, p95 ${percentile(parses, 95)} ms; ratio p95 ${round(percentile(reviews, 95) / percentile(parses, 95), 1)}x`);
  console.log(`total ${round((performance.now() - started) / 1000, 1)} s`);
} finally {
  for (const fn of teardowns.reverse()) await fn();
}
