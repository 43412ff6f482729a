// The orchestrator endpoints (/temporal/...): they describe our job
// system (graphile-worker and pg-boss, honestly named, counts from their
// tables) and run schema-match workflows deterministically; workflow ids are
// tenant-scoped; wait is bounded.
import t from 'tap';
import { ORDERS, pipelinesPlatform, userToken } from './helpers.ts';

t.test('health, config, metrics, workers and task queues describe graphile-worker and pg-boss', async (t) => {
  const { tp, asAcme } = await pipelinesPlatform(t, { PIPELINES_WAIT_MAX_SECONDS: '1' });
  await tp.platform.start();
  const health = await asAcme('GET', '/api/v1/temporal/health');
  t.equal(health.status, 200);
  t.match(health.body, { status: 'SERVING', database: true, workers_started: true, orchestrator: /graphile-worker.*pg-boss.*no Temporal server/ });
  const detailed = await asAcme('GET', '/api/v1/temporal/health/detailed');
  t.same(detailed.body.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok]), [['database', true], ['graphile-worker', true], ['pg-boss', true]]);
  const config = await asAcme('GET', '/api/v1/temporal/config');
  t.ok(config.body.graphile_worker.tasks.includes('pipelines.sensor'));
  t.ok(config.body.pg_boss.queues.some((q: { name: string }) => q.name === 'pipelines.run_step'));
  t.equal(config.body.pipelines.waitMaxSeconds, 1);
  const workers = await asAcme('GET', '/api/v1/temporal/workers');
  t.same(workers.body.items.map((w: { library: string }) => w.library), ['graphile-worker', 'pg-boss']);
  const queues = await asAcme('GET', '/api/v1/temporal/task-queues');
  const step = queues.body.items.find((q: { name: string }) => q.name === 'pipelines.run_step');
  t.match(step, { library: 'pg-boss', worked_here: true });
  t.match(queues.body.items.find((q: { name: string }) => q.name === 'pipelines.sensor'), { library: 'graphile-worker' });
  const metrics = await asAcme('GET', '/api/v1/temporal/metrics');
  t.equal(metrics.status, 200);
  t.type(metrics.body.totals, 'object');

  const member = await userToken(tp, 'reader', ['acme']);
  t.equal((await tp.request({ url: '/api/v1/temporal/health', token: member, tenant: 'acme' })).status, 200, 'members see health');
  t.equal((await tp.request({ url: '/api/v1/temporal/metrics', token: member, tenant: 'acme' })).status, 403, 'platform-wide counts are for editors');
});

t.test('schema-match workflows: deterministic, stored, tenant-scoped; wait and cancel', async (t) => {
  const { asAcme, asBeta } = await pipelinesPlatform(t, { PIPELINES_WAIT_MAX_SECONDS: '1' });
  const started = await asAcme('POST', '/api/v1/temporal/workflows/schema-match', {
    source_dataset: ORDERS,
    target_schema: [{ name: 'ID', type: 'integer' }, { name: 'orderAmount', type: 'numeric' }, { name: 'Region', type: 'text' }, { name: 'customer', type: 'text' }],
  });
  t.equal(started.status, 201);
  t.match(started.body, { workflow_type: 'schema-match', status: 'succeeded', is_terminal: true });
  t.same(started.body.result.mappings.map((m: { source: string; target: string; score: number; type_compatible: boolean }) => [m.source, m.target, m.score, m.type_compatible]), [
    ['id', 'ID', 1, true], ['amount', 'orderAmount', 0.5, true], ['region', 'Region', 1, true],
  ]);
  t.same(started.body.result.unmatched_target, ['customer']);
  const id = started.body.workflow_id;
  const read = await asAcme('GET', `/api/v1/temporal/workflows/${id}`);
  t.same(read.body.result.mappings, started.body.result.mappings);
  t.equal((await asBeta('GET', `/api/v1/temporal/workflows/${id}`)).body.code, 'WORKFLOW_NOT_FOUND', 'another tenant\'s workflow id is 404');
  t.equal((await asBeta('POST', `/api/v1/temporal/workflows/${id}/wait`, {})).status, 404);
  const waited = await asAcme('POST', `/api/v1/temporal/workflows/${id}/wait`, { timeout_seconds: 600 });
  t.match(waited.body, { status: 'succeeded', timed_out: false });
  t.equal((await asAcme('POST', `/api/v1/temporal/workflows/${id}/cancel`)).body.code, 'WORKFLOW_TERMINAL');
  t.equal((await asAcme('POST', '/api/v1/temporal/workflows/schema-match', { source_dataset: 'raw.beta.secret', target_schema: [{ name: 'a', type: 'text' }] })).status, 403);
  const twin = await asAcme('POST', '/api/v1/temporal/workflows/schema-match', { source_dataset: ORDERS, target_dataset: ORDERS });
  t.same(twin.body.result.mappings.map((m: { score: number }) => m.score), [1, 1, 1]);
  t.equal((await asAcme('POST', '/api/v1/temporal/workflows/pipeline', { pipeline_id: '00000000-0000-4000-8000-000000000000' })).body.code, 'PIPELINE_NOT_FOUND');
});
