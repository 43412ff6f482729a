// Transform runs: cancel really stops the SQL (pg_cancel_backend of the
// recorded backend) and the run ends cancelled; queued runs through the run
// task; generic runs' state machine; artifacts' content and download;
// schedules (put, pause, resume, trigger, list, delete).
import t from 'tap';
import { sql } from 'kysely';
import { until } from 'agent-platform/sdk/testing';
import { transformsPlatform } from './helpers.ts';

const SLOW = 'SELECT count(*) AS n FROM generate_series(1, 200000) a, generate_series(1, 200000) b';

t.test('cancel: a running transform\'s statement is cancelled and the run ends cancelled', async (t) => {
  const { tp, asAcme } = await transformsPlatform(t, {}, { workers: true });
  const id = (await asAcme.post('/api/v1/transforms', { name: 'slow', sql: SLOW })).body.id;
  const queued = await asAcme.post(`/api/v1/transforms/${id}/materialize`, { wait: false });
  t.equal(queued.status, 202);
  const runId = queued.body.id;
  // Running, with its backend recorded: the statement is in PostgreSQL now.
  await until(async () => {
    const { rows } = await tp.platform.core.withTenant('acme', (trx) => sql<{ pid: number | null }>`SELECT backend_pid AS pid FROM transform_runs WHERE id = ${runId}::bigint`.execute(trx));
    return rows[0]?.pid;
  }, 'the run records its backend pid', 30_000);
  const cancel = await asAcme.post(`/api/v1/transform-runs/${runId}/cancel`);
  t.equal(cancel.status, 202);
  t.equal(cancel.body.cancel_requested, true);
  const ended = await until(async () => {
    const run = (await asAcme.get(`/api/v1/transform-runs/${runId}`)).body;
    return ['cancelled', 'failed', 'succeeded'].includes(run.status) && run;
  }, 'the run ends', 30_000);
  t.equal(ended.status, 'cancelled');
  t.equal(ended.error.code, 'TRANSFORM_CANCELLED');
  t.equal((await asAcme.post(`/api/v1/transform-runs/${runId}/cancel`)).status, 409, 'an ended run cannot be cancelled');
  const events = await tp.platform.core.withTenant('acme', (trx) => sql<{ type: string; status: string }>`SELECT type, data->>'status' AS status FROM events WHERE type LIKE 'transform.run.%'`.execute(trx));
  t.same(events.rows, [{ type: 'transform.run.failed', status: 'cancelled' }]);
  const logs = (await asAcme.get(`/api/v1/transform-runs/${runId}/logs`)).body.items.map((l: { message: string }) => l.message);
  t.ok(logs.includes('cancel requested'));
});

t.test('runs through the run task; artifacts; generic runs\' state machine', async (t) => {
  const { asAcme, api } = await transformsPlatform(t, {}, { workers: true });
  const id = (await asAcme.post('/api/v1/transforms', { name: 'ids', sql: 'SELECT id FROM raw.acme.orders' })).body.id;
  const runId = await api.runTransform('acme', id, { kind: 'pipeline', pipelineRunId: 'p-1' });
  const done = await until(async () => {
    const run = (await asAcme.get(`/api/v1/transform-runs/${runId}`)).body;
    return run.status === 'succeeded' && run;
  }, 'the queued run succeeds', 30_000);
  t.match(done, { trigger: 'pipeline', pipeline_run_id: 'p-1', rows: 3 });

  const list = await asAcme.get(`/api/v1/artifacts?run_id=${runId}`);
  t.equal(list.body.items.length, 3);
  const compiled = list.body.items.find((a: { kind: string }) => a.kind === 'compiled_sql');
  const download = await asAcme.get(`/api/v1/artifacts/${compiled.id}/download`);
  t.equal(download.status, 200);
  t.match(String(download.headers['content-disposition']), /^attachment; filename="run-\d+\.sql"$/);
  const summary = list.body.items.find((a: { kind: string }) => a.kind === 'output_summary');
  const content = await asAcme.get(`/api/v1/artifacts/${summary.id}/content`);
  t.match(content.body.content, { dataset_id: 'derived.acme.ids', rows: 3 });
  t.equal((await asAcme.get('/api/v1/artifacts/00000000-0000-4000-8000-000000000000')).status, 404);

  const run = (await asAcme.post('/api/v1/runs', { triggering_transform_id: id, orchestrator_run_id: 'dagster-42', job_name: 'nightly' })).body;
  t.match(run, { status: 'pending', triggering_transform_id: id, orchestrator_run_id: 'dagster-42' });
  t.match(run.id, /^\d+$/);
  const conflict = await asAcme.post(`/api/v1/runs/${run.id}/complete`, {});
  t.equal(conflict.status, 409);
  t.equal(conflict.body.code, 'RUN_STATE_CONFLICT');
  t.equal((await asAcme.get(`/api/v1/runs/${run.id}`)).body.status, 'pending', 'an illegal transition changes nothing');
  t.equal((await asAcme.post(`/api/v1/runs/${run.id}/start`)).body.status, 'running');
  t.match((await asAcme.post(`/api/v1/runs/${run.id}/complete`, { message: 'ok', metadata: { rows: 3 } })).body, { status: 'succeeded', is_terminal: true, message: 'ok', metadata: { rows: 3 } });
  t.equal((await asAcme.post(`/api/v1/runs/${run.id}/cancel`)).status, 409);
  t.equal((await asAcme.get(`/api/v1/runs?orchestrator_run_id=dagster-42`)).body.items.length, 1);
  t.equal((await asAcme.post('/api/v1/runs', { triggering_transform_id: '00000000-0000-4000-8000-000000000000' })).status, 404);
});

t.test('schedules: put, pause, resume, trigger, list, delete', async (t) => {
  const { asAcme } = await transformsPlatform(t, {}, { workers: true });
  const id = (await asAcme.post('/api/v1/transforms', { name: 'nightly', sql: 'SELECT id FROM raw.acme.orders' })).body.id;
  t.equal((await asAcme.get(`/api/v1/transforms/${id}/schedule`)).status, 404);
  t.equal((await asAcme.put(`/api/v1/transforms/${id}/schedule`, { cron: 'not a cron' })).status, 400);
  t.equal((await asAcme.put(`/api/v1/transforms/${id}/schedule`, { cron: '0 2 * * *', timezone: 'Mars/Base' })).body.code, 'SCHEDULE_INVALID');
  const put = await asAcme.put(`/api/v1/transforms/${id}/schedule`, { cron: '0 2 * * *', timezone: 'Europe/Lisbon' });
  t.equal(put.status, 200, JSON.stringify(put.body));
  t.match(put.body, { transform_id: id, transform_name: 'nightly', cron: '0 2 * * *', timezone: 'Europe/Lisbon', paused: false });
  t.ok(new Date(put.body.next_run_at).getTime() > Date.now());
  t.match((await asAcme.post(`/api/v1/transforms/${id}/schedule/pause`)).body, { paused: true, next_run_at: null });
  t.equal((await asAcme.post(`/api/v1/transforms/${id}/schedule/resume`)).body.paused, false);
  const triggered = await asAcme.post(`/api/v1/transforms/${id}/schedule/trigger`);
  t.equal(triggered.status, 202);
  t.equal(triggered.body.trigger, 'schedule');
  await until(async () => (await asAcme.get(`/api/v1/transform-runs/${triggered.body.id}`)).body.status === 'succeeded', 'the triggered run succeeds', 30_000);
  t.same((await asAcme.get('/api/v1/transform-schedules')).body.items.map((s: { transform_id: string }) => s.transform_id), [id]);
  t.equal((await asAcme.get(`/api/v1/transforms/${id}/detail`)).body.schedule.cron, '0 2 * * *');
  t.equal((await asAcme.del(`/api/v1/transforms/${id}/schedule`)).status, 204);
  t.same((await asAcme.get('/api/v1/transform-schedules')).body.items, []);
});

t.test('api: listTransforms pages by id; getTransformRun and cancelTransformRun answer as the REST routes', async (t) => {
  const { asAcme, api } = await transformsPlatform(t);
  const ids = [];
  for (const name of ['one', 'two', 'three']) ids.push((await asAcme.post('/api/v1/transforms', { name, sql: 'SELECT id FROM raw.acme.orders' })).body.id);
  const first = await api.listTransforms('acme', { first: 2 });
  t.equal(first.total, 3);
  t.equal(first.items.length, 2);
  const second = await api.listTransforms('acme', { first: 2, after: first.next });
  t.equal(second.next, null);
  t.same([...first.items, ...second.items].map((r) => r.id).sort(), [...ids].sort(), 'every transform once, in id order across pages');
  t.same((await api.listTransforms('beta')).items, [], 'another tenant\'s transforms are not listed');
  await t.rejects(api.listTransforms('acme', { first: 0 }), { output: { statusCode: 400 } } as never);

  const runId = await api.runTransform('acme', ids[0], { kind: 'manual' });
  const queued = await api.getTransformRun('acme', runId);
  t.match(queued, { id: runId, transform_id: ids[0], status: 'queued', snapshot_id: null });
  const rest = (await asAcme.get(`/api/v1/transform-runs/${runId}`)).body;
  t.same(Object.keys(queued!).sort(), Object.keys(rest).filter((key) => key !== 'snapshot_id_exact').sort(), 'the REST view\'s fields');
  t.equal(await api.getTransformRun('beta', runId), null, 'another tenant\'s run is not found');
  t.equal(await api.getTransformRun('acme', 'not-a-run'), null);
  const cancelled = await api.cancelTransformRun('acme', runId);
  t.match(cancelled, { status: 'cancelled', cancel_requested: true, error: { code: 'TRANSFORM_CANCELLED' } });
  await t.rejects(api.cancelTransformRun('acme', runId), { output: { statusCode: 409, payload: { code: 'TRANSFORM_RUN_NOT_CANCELLABLE' } } } as never);
  await t.rejects(api.cancelTransformRun('beta', runId), { output: { statusCode: 404, payload: { code: 'TRANSFORM_RUN_NOT_FOUND' } } } as never);
});
