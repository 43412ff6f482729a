// POST /transforms/review and /transforms/preview: SQL not saved yet is
// reviewed (errors at their line and column, lint warnings, inputs) and
// previewed (first rows) without storing anything; editors only; another
// tenant's dataset is refused by the read rule; bad input is a clear 400.
import t from 'tap';
import { transformsPlatform } from './helpers.ts';
import { userToken } from '../../pipelines-sources/test/helpers.ts';

t.test('review and preview SQL that is not a transform yet', async (t) => {
  const { tp, asAcme } = await transformsPlatform(t);

  const bad = await asAcme.post('/api/v1/transforms/review', { sql: 'SELECT customer,\n  sum(amount) AS total\nFROM raw.acme.orders\nGROUP BY customer\nORDER BY total DESCC' });
  t.equal(bad.status, 200, JSON.stringify(bad.body));
  t.equal(bad.body.ok, false);
  t.match(bad.body.analysis.errors, [{ code: 'SQL_SYNTAX', line: 5, column: 16 }]);
  t.match(bad.body.findings, [{ rule: 'syntax', severity: 'error', line: 5 }]);

  const forbidden = await asAcme.post('/api/v1/transforms/review', { sql: 'SELECT id\nFROM raw.beta.orders' });
  t.match(forbidden.body, { ok: false, analysis: { errors: [{ code: 'DATASET_FORBIDDEN', line: 2 }], inputs: [] } }, 'another tenant\'s dataset is refused at its position');

  const clean = await asAcme.post('/api/v1/transforms/review', { sql: 'SELECT customer, sum(amount) AS total FROM raw.acme.orders WHERE amount >= $1 GROUP BY customer', parameters: { min_amount: { type: 'number', default: 5 } } });
  t.match(clean.body, { ok: true, analysis: { errors: [], inputs: ['raw.acme.orders'], columns: [{ name: 'customer', type: 'text' }, { name: 'total', type: 'numeric' }] } });
  const star = await asAcme.post('/api/v1/transforms/review', { sql: 'SELECT * FROM raw.acme.orders' });
  t.match(star.body, { ok: true, findings: [{ rule: 'select-star', severity: 'warning' }] }, 'warnings leave it ok');

  const preview = await asAcme.post('/api/v1/transforms/preview', { sql: 'SELECT customer, sum(amount) AS total FROM raw.acme.orders WHERE amount >= $1 GROUP BY customer ORDER BY customer', parameters: { min_amount: { type: 'number', default: 5 } } });
  t.equal(preview.status, 200, JSON.stringify(preview.body));
  t.same(preview.body, { inputs: ['raw.acme.orders'], sample_rows_per_input: 1000, columns: [{ name: 'customer', type: 'text' }, { name: 'total', type: 'numeric' }], rows: [{ customer: 'ann', total: '17.50' }] });
  const limited = await asAcme.post('/api/v1/transforms/preview', { sql: 'SELECT id FROM raw.acme.orders ORDER BY id', limit: 2 });
  t.same(limited.body.rows, [{ id: '1' }, { id: '2' }], 'limit rows');

  const refused = await asAcme.post('/api/v1/transforms/preview', { sql: 'SELECT id FROM raw.beta.orders' });
  t.equal(refused.status, 400);
  t.equal(refused.body.code, 'DATASET_FORBIDDEN');
  t.match(refused.body.errors, [{ code: 'DATASET_FORBIDDEN' }]);
  t.equal((await asAcme.post('/api/v1/transforms/preview', { sql: 'SELECT 1/0 AS x' })).body.code, 'SQL_INVALID', 'an error PostgreSQL finds while planning is the analysis\'s');
  t.equal((await asAcme.post('/api/v1/transforms/preview', { sql: 'SELECT 1 / (id - id) AS x FROM raw.acme.orders' })).body.code, 'TRANSFORM_SQL_FAILED', 'one it finds while running is the preview\'s');
  t.equal((await asAcme.post('/api/v1/transforms/preview', { sql: 'SELECT 1 AS x', limit: 5000 })).status, 400, 'limit past 1000');
  t.equal((await asAcme.post('/api/v1/transforms/review', { sql: '' })).status, 400, 'empty SQL');
  t.equal((await asAcme.post('/api/v1/transforms/review', { sql: 'SELECT 1', extra: true })).status, 400, 'unknown field');
  t.equal((await asAcme.get('/api/v1/transforms')).body.total, 0, 'nothing stored');

  const reader = await userToken(tp, 'reader', ['acme']);
  const editor = await userToken(tp, 'editor', ['acme'], ['pipeline_editor']);
  const as = (token: string, url: string) => tp.request({ method: 'POST', url, token, tenant: 'acme', payload: { sql: 'SELECT id FROM raw.acme.orders' } });
  t.equal((await as(reader, '/api/v1/transforms/review')).status, 403, 'a member may not review');
  t.equal((await as(reader, '/api/v1/transforms/preview')).status, 403, 'nor preview');
  t.equal((await as(editor, '/api/v1/transforms/review')).status, 200, 'a pipeline editor may');
  t.equal((await as(editor, '/api/v1/transforms/preview')).status, 200);
});
