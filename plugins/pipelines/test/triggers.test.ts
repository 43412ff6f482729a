// Active pipelines run on their own, on their schedule or when an input
// dataset gets a new snapshot: the snapshot sensor reads
// dataset.snapshot_created events, the schedule timer fires; a paused
// pipeline does neither. A step job run again after its step settled changes
// nothing (no step is repeated).
import t from 'tap';
import { coreOf } from 'agent-platform/sdk';
import { until } from 'agent-platform/sdk/testing';
import { STEP_TASK } from '../runner/step-job.ts';
import { PIPELINE_SCHEDULE } from '../triggers/schedule.ts';
import { ORDERS, pipelinesPlatform } from './helpers.ts';

const steps = [{ id: 'copy', sql: 'SELECT id, amount FROM raw.acme.orders', output: 'orders_copy', inputs: [ORDERS] }];
const write = (rows: Record<string, unknown>[]) => ({ mode: 'overwrite' as const, source: { kind: 'records' as const, batches: [rows] } });

t.test('the sensor: a new snapshot of an input starts a run of an active pipeline; paused, nothing', async (t) => {
  const { tp, lake, asAcme } = await pipelinesPlatform(t, { PIPELINES_SENSOR_INTERVAL_SECONDS: '1' });
  await tp.platform.start();
  const id = (await asAcme('POST', '/api/v1/pipelines', { name: 'sensed', steps, sensor: true })).body.id;
  const unrelated = (await asAcme('POST', '/api/v1/pipelines', { name: 'unsensed', steps: [{ ...steps[0], output: 'other_copy' }] })).body.id;
  t.equal((await asAcme('POST', `/api/v1/pipelines/${id}/activate`, { force: true })).status, 200);
  t.equal((await asAcme('POST', `/api/v1/pipelines/${unrelated}/activate`, { force: true })).status, 200);
  const runsOf = async (pipeline: string) => (await asAcme('GET', `/api/v1/pipelines/${pipeline}/runs`)).body.items;
  t.same(await runsOf(id), [], 'the snapshot taken before activation starts nothing');

  const snapshot = await lake.write('acme', ORDERS, write([{ id: 1, amount: '1', region: 'x' }, { id: 9, amount: '9', region: 'y' }]));
  const [run] = await until(async () => {
    const runs = await runsOf(id);
    return runs.length && runs[0].status === 'succeeded' && runs;
  }, 'a sensor run', 30_000);
  t.match(run, { trigger: 'sensor', kind: 'production', trigger_detail: { snapshots: [{ dataset_id: ORDERS, snapshot_id: snapshot.snapshotId }] } });
  t.equal(run.steps[0].rows, 2, 'the run read the new snapshot');
  t.same(await runsOf(unrelated), [], 'a pipeline without sensor: true is not started');

  await asAcme('POST', `/api/v1/pipelines/${id}/pause`);
  await lake.write('acme', ORDERS, write([{ id: 2, amount: '2', region: 'x' }]));
  // A witness activated now and fed a later snapshot: once it ran, the sensor has read past the paused pipeline's event too.
  const witness = (await asAcme('POST', '/api/v1/pipelines', { name: 'witness', steps: [{ ...steps[0], output: 'witness_copy' }], sensor: true })).body.id;
  await asAcme('POST', `/api/v1/pipelines/${witness}/activate`, { force: true });
  await lake.write('acme', ORDERS, write([{ id: 3, amount: '3', region: 'x' }]));
  await until(async () => (await runsOf(witness)).length > 0, 'the witness ran', 30_000);
  t.equal((await runsOf(id)).length, 1, 'the paused pipeline was not started');
});

t.test('a snapshot landing during a sensor run starts one more run when it ends', async (t) => {
  const { tp, lake, asAcme } = await pipelinesPlatform(t, { PIPELINES_SENSOR_INTERVAL_SECONDS: '1' });
  await tp.platform.start();
  const slow = [{
    id: 'slow', output: 'slow_count', inputs: [ORDERS],
    sql: 'SELECT (SELECT count(*) FROM raw.acme.orders) AS orders, count(*) AS n FROM generate_series(1, 6000) a, generate_series(1, 6000) b',
  }];
  const id = (await asAcme('POST', '/api/v1/pipelines', { name: 'slow_sensed', steps: slow, sensor: true })).body.id;
  await asAcme('POST', `/api/v1/pipelines/${id}/activate`, { force: true });
  const runsOf = async () => (await asAcme('GET', `/api/v1/pipelines/${id}/runs`)).body.items;
  await lake.write('acme', ORDERS, write([{ id: 1, amount: '1', region: 'x' }]));
  await until(async () => (await runsOf())[0]?.steps[0]?.status === 'running', 'the first run\'s step runs', 30_000);
  const late = await lake.write('acme', ORDERS, write([{ id: 1, amount: '1', region: 'x' }, { id: 2, amount: '2', region: 'y' }]));
  const runs = await until(async () => {
    const all = await runsOf();
    return all.length === 2 && all.every((run: { status: string }) => run.status === 'succeeded') && all;
  }, 'the second run', 60_000);
  // The late snapshot's event is read once the slow step's transaction has ended (the stream's horizon): it starts the
  // second run either as the waiting one (after_run) or from the sensor's next read, never both.
  t.match(runs[0].trigger_detail, { snapshots: [{ dataset_id: ORDERS, snapshot_id: late.snapshotId }] }, 'the late snapshot started it');
  t.equal(runs[0].steps[0].sample_rows[0].orders, 2, 'and it read that snapshot');
  t.equal(runs[1].steps[0].sample_rows[0].orders, 1);
});

t.test('the schedule timer starts a run of the active version; a settled step is never run again', async (t) => {
  const { tp, asAcme } = await pipelinesPlatform(t);
  await tp.platform.start();
  const id = (await asAcme('POST', '/api/v1/pipelines', { name: 'nightly', steps, schedule: { cron: '0 3 * * *', timezone: 'UTC' } })).body.id;
  const active = await asAcme('POST', `/api/v1/pipelines/${id}/activate`, { force: true });
  const scheduled = active.body.next_run_at;
  t.match(scheduled, /T03:00:00/);
  const { jobs } = coreOf(tp.platform.server);
  // The timer, due now (the same job key replaces the armed one).
  await jobs.enqueue('core.schedule_fire', { tenant_id: 'acme', kind: PIPELINE_SCHEDULE, subject: id, scheduled_time: new Date(scheduled).toISOString() }, { jobKey: `schedule:${PIPELINE_SCHEDULE}:acme:${id}` });
  const [run] = await until(async () => {
    const runs = (await asAcme('GET', `/api/v1/pipelines/${id}/runs`)).body.items;
    return runs.length && runs[0].status === 'succeeded' && runs;
  }, 'a scheduled run', 30_000);
  t.match(run, { trigger: 'schedule', trigger_detail: { scheduled_time: new Date(scheduled).toISOString() } });
  const after = (await asAcme('GET', `/api/v1/pipelines/${id}`)).body;
  t.equal(new Date(after.next_run_at).getTime(), new Date(scheduled).getTime() + 86_400_000, 'the next occurrence is armed');

  // The step's job again (a duplicate, or a retry after its result committed): nothing changes.
  await jobs.enqueueLong(STEP_TASK, { tenant_id: 'acme', run_id: run.id, step_id: 'copy' });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const again = (await asAcme('GET', `/api/v1/pipelines/${id}/runs`)).body.items[0];
  t.same(again.steps, run.steps, 'the settled step kept its result: same snapshot, same timings');
});

