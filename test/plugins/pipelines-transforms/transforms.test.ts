// The transform routes: create (analyzed), read, detail, patch,
// hydrate, materialize (a run with logs, artifacts and its event), execute
// (adopts the row of that orchestrator run and transform only), archive vs
// hard delete (which deletes the execution records it triggered), roles.
import t from 'tap';
import { sql } from 'kysely';
import { transformsPlatform } from './helpers.ts';
import { userToken } from '../../../plugins/lakehouse/test/helpers.ts';

const totals = {
  name: 'customer_totals', sql: 'SELECT customer, sum(amount) AS total FROM raw.acme.orders WHERE amount >= $1 GROUP BY customer',
  parameters: { min_amount: { type: 'number', default: 0 } },
};

t.test('transforms: create, read, patch, hydrate, materialize with logs, artifacts and event', async (t) => {
  const { tp, asAcme } = await transformsPlatform(t, {}, { workers: true });
  const created = await asAcme.post('/api/v1/transforms', totals);
  t.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id;
  t.match(created.body, { name: 'customer_totals', output_dataset: 'derived.acme.customer_totals', materialization: 'table', status: 'active', inputs: ['raw.acme.orders'] });
  t.same(created.body.columns, [{ name: 'customer', type: 'text' }, { name: 'total', type: 'numeric' }]);
  t.equal((await asAcme.post('/api/v1/transforms', totals)).body.code, 'TRANSFORM_NAME_TAKEN');
  const refused = await asAcme.post('/api/v1/transforms', { name: 'bad', sql: "SELECT pg_read_file('/etc/passwd') AS f" });
  t.equal(refused.status, 400);
  t.equal(refused.body.code, 'SQL_FUNCTION_NOT_ALLOWED');
  const refusals: [string, string][] = [
    ["SELECT set_config('app.tenant_id', 'beta', true) AS t", 'SQL_FUNCTION_NOT_ALLOWED'],
    ["SELECT * FROM dblink('dbname=postgres', 'SELECT 1') AS r(a int)", 'SQL_FUNCTION_NOT_ALLOWED'],
    ['WITH gone AS (DELETE FROM raw.acme.orders RETURNING id) SELECT id FROM gone', 'SQL_DATA_MODIFYING'],
    ['SELECT id FROM raw.beta.orders', 'DATASET_FORBIDDEN'],
  ];
  for (const [text, code] of refusals) {
    const answer = await asAcme.post('/api/v1/transforms', { name: 'refused', sql: text });
    t.equal(answer.status, 400, text);
    t.equal(answer.body.code, code, text);
    t.match(answer.body.errors, [{ code }]);
  }
  t.equal((await asAcme.get('/api/v1/transforms')).body.total, 1, 'nothing saved for the refused ones');

  const run = await asAcme.post(`/api/v1/transforms/${id}/materialize`, { parameters: { min_amount: 5 } });
  t.equal(run.status, 200, JSON.stringify(run.body));
  t.match(run.body, { transform_id: id, status: 'succeeded', trigger: 'materialize', rows: 1, output_dataset: 'derived.acme.customer_totals' });
  t.match(run.body.id, /^\d+$/);
  t.equal(run.body.snapshot_id_exact, String(run.body.snapshot_id_exact).match(/^\d+$/)?.[0]);
  const preview = await asAcme.get('/api/v1/datasets/derived.acme.customer_totals/preview');
  t.same(preview.body.rows, [{ customer: 'ann', total: '17.50' }], 'only ann has orders >= 5');

  const logs = await asAcme.get(`/api/v1/transform-runs/${run.body.id}/logs`);
  t.ok(logs.body.items.some((l: { message: string }) => /succeeded: 1 row/.test(l.message)));
  t.ok(logs.body.items.some((l: { message: string }) => l.message === 'running (attempt 1)'), 'wait: true ran through the run job (crash-safe), answered when it ended');
  const detail = await asAcme.get(`/api/v1/transforms/${id}/detail`);
  t.match(detail.body, { lineage: { inputs: ['raw.acme.orders'], output: 'derived.acme.customer_totals' }, schedule: null });
  t.equal(detail.body.last_runs.length, 1);
  t.same(detail.body.artifacts.map((a: { kind: string }) => a.kind).sort(), ['compiled_sql', 'logs', 'output_summary']);
  const nested = await asAcme.get(`/api/v1/transforms/${id}/runs/${run.body.id}`);
  t.equal(nested.body.status, 'succeeded');
  const events = await tp.platform.core.withTenant('acme', (trx) => sql<{ type: string; data: { run_id: string; snapshot_id: string } }>`SELECT type, data FROM events WHERE type LIKE 'transform.run.%'`.execute(trx));
  t.same(events.rows.map((e) => [e.type, e.data.run_id, e.data.snapshot_id]), [['transform.run.completed', run.body.id, run.body.snapshot_id_exact]]);

  const patched = await asAcme.patch(`/api/v1/transforms/${id}`, { sql: 'SELECT customer, count(*) AS orders FROM raw.acme.orders GROUP BY customer' });
  t.equal(patched.status, 200, JSON.stringify(patched.body));
  t.same(patched.body.columns, [{ name: 'customer', type: 'text' }, { name: 'orders', type: 'bigint' }]);
  const badPatch = await asAcme.patch(`/api/v1/transforms/${id}`, { sql: 'WITH x AS (UPDATE raw.acme.orders SET amount = 0 RETURNING id) SELECT id FROM x' });
  t.equal(badPatch.body.code, 'SQL_DATA_MODIFYING');
  t.equal((await asAcme.get(`/api/v1/transforms/${id}`)).body.sql, patched.body.sql, 'a refused patch changes nothing');

  // A transform may name an input that does not exist yet; hydrate picks it up once it lands.
  const early = await asAcme.post('/api/v1/transforms', { name: 'early', sql: 'SELECT id FROM raw.acme.later' });
  t.equal(early.status, 201);
  t.match(early.body.analysis_errors, [{ code: 'DATASET_NOT_FOUND' }]);
  await tp.platform.server.plugins.lakehouse.api.ensureDataset('acme', { datasetId: 'raw.acme.later', columns: [{ name: 'id', type: 'bigint' }], producer: { kind: 'test', id: 't' } });
  const hydrated = await asAcme.post(`/api/v1/transforms/${early.body.id}/hydrate`);
  t.same(hydrated.body.analysis_errors, []);
  t.same(hydrated.body.inputs, ['raw.acme.later']);
  t.same(hydrated.body.columns, [{ name: 'id', type: 'bigint' }]);
});

t.test('transforms: execute adopts the row of that orchestrator run and transform, never another transform\'s', async (t) => {
  const { asAcme } = await transformsPlatform(t, {}, { workers: true });
  const a = (await asAcme.post('/api/v1/transforms', { name: 'a', sql: 'SELECT id FROM raw.acme.orders' })).body.id;
  const b = (await asAcme.post('/api/v1/transforms', { name: 'b', sql: 'SELECT customer FROM raw.acme.orders' })).body.id;
  const first = await asAcme.post(`/api/v1/transforms/${a}/execute`, { orchestrator_run_id: 'dag-run-1' });
  t.equal(first.status, 200, JSON.stringify(first.body));
  t.match(first.body, { status: 'succeeded', orchestrator_run_id: 'dag-run-1', adopted: false, trigger: 'execute' });
  const grouped = await asAcme.post(`/api/v1/transforms/${b}/execute`, { orchestrator_run_id: 'dag-run-1' });
  t.match(grouped.body, { transform_id: b, adopted: false });
  t.not(grouped.body.id, first.body.id, 'the grouped job of another transform gets its own row');
  const retry = await asAcme.post(`/api/v1/transforms/${a}/execute`, { orchestrator_run_id: 'dag-run-1' });
  t.match(retry.body, { id: first.body.id, adopted: true, status: 'succeeded' });
  t.equal((await asAcme.get('/api/v1/transform-runs')).body.items.length, 2);
});

t.test('transforms: archive keeps history; hard delete deletes the runs and artifacts it triggered; roles', async (t) => {
  const { tp, asAcme, asBeta } = await transformsPlatform(t, {}, { workers: true });
  const id = (await asAcme.post('/api/v1/transforms', { name: 'keep', sql: 'SELECT id FROM raw.acme.orders' })).body.id;
  const run = (await asAcme.post(`/api/v1/transforms/${id}/materialize`, {})).body;
  const archived = await asAcme.del(`/api/v1/transforms/${id}?archive=true`);
  t.equal(archived.body.status, 'archived');
  t.equal((await asAcme.get(`/api/v1/transform-runs/${run.id}`)).status, 200, 'archive keeps the runs');
  t.equal((await asAcme.post(`/api/v1/transforms/${id}/materialize`, {})).body.code, 'TRANSFORM_ARCHIVED');
  t.equal((await asBeta.get(`/api/v1/transforms/${id}`)).status, 404, 'another tenant sees nothing');

  const generic = await asAcme.post('/api/v1/runs', { triggering_transform_id: id, orchestrator_run_id: 'ext-1' });
  t.equal(generic.status, 201);
  t.equal((await asAcme.del(`/api/v1/transforms/${id}`)).status, 204);
  t.equal((await asAcme.get(`/api/v1/transform-runs/${run.id}`)).status, 404, 'hard delete removes its runs');
  t.equal((await asAcme.get(`/api/v1/runs/${generic.body.id}`)).status, 404, 'and the generic runs it triggered');
  const left = await tp.platform.core.withTenant('acme', (trx) => sql<{ n: number }>`SELECT count(*)::int AS n FROM transform_artifacts`.execute(trx));
  t.equal(left.rows[0]!.n, 0, 'and its artifacts');

  const reader = await userToken(tp, 'reader', ['acme']);
  const asReader = (method: string, url: string, payload?: unknown) => tp.request({ method, url, token: reader, tenant: 'acme', payload });
  t.equal((await asReader('GET', '/api/v1/transforms')).status, 200, 'members read');
  t.equal((await asReader('POST', '/api/v1/transforms', { name: 'x', sql: 'SELECT 1 AS one' })).status, 403, 'changes need admin or pipeline_editor');
});
