// The SQL library (by category and type, apply into a tenant transform, sync
// idempotent) and transform patterns (JSON Schema parameters, validate,
// preview on a sample with nothing stored, sync).
import t from 'tap';
import { sql } from 'kysely';
import { transformsPlatform } from './helpers.ts';

t.test('sql-transforms: list, categories, for-type, apply, sync', async (t) => {
  const { asAcme } = await transformsPlatform(t, {}, { workers: true });
  const list = await asAcme.get('/api/v1/sql-transforms');
  t.equal(list.status, 200);
  t.ok(list.body.items.length >= 8);
  t.ok((await asAcme.get('/api/v1/sql-transforms/categories')).body.items.some((c: { category: string }) => c.category === 'cleaning'));
  const forText = await asAcme.get('/api/v1/sql-transforms/for-type/text');
  t.ok(forText.body.items.every((e: { sql_types: string[] }) => e.sql_types.includes('text')));
  t.ok(forText.body.items.some((e: { id: string }) => e.id === 'trim_whitespace'));
  t.equal((await asAcme.get('/api/v1/sql-transforms/for-type/blob')).status, 400);
  t.equal((await asAcme.get('/api/v1/sql-transforms/nope')).status, 404);

  const applied = await asAcme.post('/api/v1/sql-transforms/round_number/apply', { name: 'rounded', input_dataset: 'raw.acme.orders', column: 'amount', parameters: { decimals: 0 } });
  t.equal(applied.status, 201, JSON.stringify(applied.body));
  t.match(applied.body, { name: 'rounded', origin: { kind: 'sql_library', id: 'round_number' }, inputs: ['raw.acme.orders'] });
  const run = await asAcme.post(`/api/v1/transforms/${applied.body.id}/materialize`, {});
  t.equal(run.body.status, 'succeeded');
  const preview = await asAcme.get('/api/v1/datasets/derived.acme.rounded/preview');
  t.same(preview.body.rows.map((r: { id: number; amount_round_number: string }) => [r.id, r.amount_round_number]).sort(), [[1, '11'], [2, '3'], [3, '7']]);
  const mismatch = await asAcme.post('/api/v1/sql-transforms/lowercase/apply', { name: 'x', input_dataset: 'raw.acme.orders', column: 'amount' });
  t.equal(mismatch.body.code, 'SQL_TRANSFORM_TYPE_MISMATCH');
  t.equal((await asAcme.post('/api/v1/sql-transforms/lowercase/apply', { name: 'x', input_dataset: 'raw.beta.orders', column: 'customer' })).status, 403);

  const sync = await asAcme.post('/api/v1/sql-transforms/sync');
  t.same(sync.body, { created: 0, updated: 0, unchanged: list.body.items.length }, 'reloading changes nothing');
});

t.test('transform-patterns: list, get, validate, preview (nothing stored), sync', async (t) => {
  const { tp, asAcme } = await transformsPlatform(t);
  const list = await asAcme.get('/api/v1/transform-patterns');
  t.same(list.body.items.map((p: { id: string }) => p.id).sort(), ['aggregate', 'dedupe_by_key', 'filter', 'geocode_points', 'join', 'pivot', 'scd_type2', 'type_cast_clean']);
  const dedupe = await asAcme.get('/api/v1/transform-patterns/dedupe_by_key');
  t.match(dedupe.body.parameters_schema, { type: 'object', required: ['input', 'key', 'order_by'] });
  t.ok((await asAcme.get('/api/v1/transform-patterns/categories')).body.items.length >= 5);

  const bad = await asAcme.post('/api/v1/transform-patterns/aggregate/validate', { parameters: { input: 'raw.acme.orders' } });
  t.equal(bad.status, 200);
  t.match(bad.body, { valid: false, errors: [{ code: 'PATTERN_PARAMETERS_INVALID' }] });
  const unknownColumn = await asAcme.post('/api/v1/transform-patterns/aggregate/validate', { parameters: { input: 'raw.acme.orders', measures: [{ column: 'nope', function: 'sum', as: 's' }] } });
  t.match(unknownColumn.body, { valid: false, errors: [{ code: 'PATTERN_COLUMN_UNKNOWN' }] });
  const good = await asAcme.post('/api/v1/transform-patterns/aggregate/validate', {
    parameters: { input: 'raw.acme.orders', group_by: ['customer'], measures: [{ column: 'amount', function: 'sum', as: 'total' }, { column: 'id', function: 'count', as: 'orders' }] },
  });
  t.match(good.body, { valid: true, errors: [], unique_key: ['customer'], analysis: { inputs: ['raw.acme.orders'] } });
  t.same(good.body.analysis.columns, [{ name: 'customer', type: 'text' }, { name: 'total', type: 'numeric' }, { name: 'orders', type: 'bigint' }]);

  const count = async () => (await tp.platform.core.withTenant('acme', (trx) => sql<{ n: number }>`SELECT (SELECT count(*) FROM lake_datasets)::int + (SELECT count(*) FROM lake_snapshots)::int + (SELECT count(*) FROM transforms)::int AS n`.execute(trx))).rows[0]!.n;
  const before = await count();
  const preview = await asAcme.post('/api/v1/transform-patterns/filter/preview', {
    parameters: { input: 'raw.acme.orders', conditions: [{ column: 'customer', operator: 'eq', value: 'ann' }, { column: 'amount', operator: 'gt', value: 8 }] },
  });
  t.equal(preview.status, 200, JSON.stringify(preview.body));
  t.same(preview.body.rows.map((r: { id: string }) => Number(r.id)), [1]);
  t.equal(await count(), before, 'a preview stores nothing');

  const geo = await asAcme.post('/api/v1/transform-patterns/pivot/preview', {
    parameters: { input: 'raw.acme.orders', row_key: ['customer'], pivot_column: 'id', value_column: 'amount', values: ['1', '2'] },
  });
  t.equal(geo.status, 200, JSON.stringify(geo.body));
  t.same(geo.body.columns.map((c: { name: string }) => c.name), ['customer', '1', '2']);
  const dedup = await asAcme.post('/api/v1/transform-patterns/dedupe_by_key/preview', { parameters: { input: 'raw.acme.orders', key: ['customer'], order_by: 'amount' } });
  t.same(dedup.body.rows.map((r: { customer: string; amount: string }) => [r.customer, r.amount]), [['ann', '10.50'], ['bob', '3']]);
  const scd = await asAcme.post('/api/v1/transform-patterns/scd_type2/validate', { parameters: { input: 'raw.acme.orders', key: ['customer'], tracked: ['amount'], changed_at: 'id' } });
  t.equal(scd.body.valid, true, JSON.stringify(scd.body.errors));
  const cast = await asAcme.post('/api/v1/transform-patterns/type_cast_clean/preview', { parameters: { input: 'raw.acme.orders', columns: [{ column: 'customer', cast: 'text', null_if: ['bob'] }] } });
  t.equal(cast.status, 200, JSON.stringify(cast.body));
  t.same(cast.body.rows.map((r: { customer: string | null }) => r.customer).sort(), ['ann', 'ann', null]);
  const forbidden = await asAcme.post('/api/v1/transform-patterns/filter/preview', { parameters: { input: 'raw.beta.orders', conditions: [{ column: 'id', operator: 'not_null' }] } });
  t.equal(forbidden.status, 400);
  t.equal(forbidden.body.code, 'DATASET_FORBIDDEN');
  t.same((await asAcme.post('/api/v1/transform-patterns/sync')).body, { created: 0, updated: 0, unchanged: 8 });
});
