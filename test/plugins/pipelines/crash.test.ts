// A worker killed mid-run (a child process running the platform, SIGKILL
// while a step's SQL is in flight): the step that had settled is not run
// again, the killed step is retried in another process once its job's
// heartbeat stops, and the run completes with every step's output.
import { spawn } from 'node:child_process';
import t from 'tap';
import { ROOT_DIR } from '../../../core/paths.ts';
import { startTestPlatform, until } from '../../harness.ts';
import { ORDERS, pipelinesPlatform } from './helpers.ts';

t.test('a run whose worker dies mid-step completes elsewhere; the settled step is not repeated', async (t) => {
  const { tp, acme, asAcme } = await pipelinesPlatform(t);
  const steps = [
    { id: 'first', sql: 'SELECT id, amount FROM raw.acme.orders', output: 'crash_first', inputs: [ORDERS] },
    { id: 'slow', sql: 'SELECT (SELECT count(*) FROM derived.acme.crash_first) AS firsts, count(*) AS n FROM generate_series(1, 7000) a, generate_series(1, 7000) b', output: 'crash_slow', inputs: ['first'] },
    { id: 'last', sql: 'SELECT firsts, n FROM derived.acme.crash_slow', output: 'crash_last', inputs: ['slow'] },
  ];
  const id = (await asAcme('POST', '/api/v1/pipelines', { name: 'crashy', steps })).body.id;
  t.equal((await asAcme('POST', `/api/v1/pipelines/${id}/activate`, { force: true })).status, 200);

  const child = spawn(process.execPath, ['core/cli/bin.ts', 'serve'], {
    cwd: ROOT_DIR, env: { ...tp.env, PORT: '0', LOG_LEVEL: 'silent', JOBS_POLL_INTERVAL_MS: '100' }, stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const run = (await asAcme('POST', '/api/v1/temporal/workflows/pipeline', { pipeline_id: id })).body.workflow_id;
  const read = async () => (await asAcme('GET', `/api/v1/temporal/workflows/${run}`)).body;
  const during = await until(async () => {
    const current = await read();
    return current.result.steps[1].status === 'running' && current;
  }, 'the child to run the slow step', 60_000);
  child.kill('SIGKILL');
  await exited;
  const first = during.result.steps[0];
  t.equal(first.status, 'succeeded');

  const next = await startTestPlatform(t, { databaseUrl: tp.databaseUrl, env: { ...tp.env, JOBS_SUPERVISE_INTERVAL_SECONDS: '1' } });
  await next.platform.start();
  const as = (url: string) => next.request({ url, token: acme.token, tenant: 'acme' });
  const settled = await until(async () => {
    const current = (await as(`/api/v1/temporal/workflows/${run}`)).body;
    return current.is_terminal && current;
  }, 'the retry in the new process to finish', 120_000);
  t.equal(settled.status, 'succeeded', JSON.stringify(settled.result.steps.map((s: { error: string }) => s.error)));
  t.same(settled.result.steps[0], first, 'the settled step kept its result (same snapshot, same timings): not run again');
  t.same(settled.result.steps.map((s: { status: string }) => s.status), ['succeeded', 'succeeded', 'succeeded']);
  t.equal(settled.result.steps[2].rows, 1);
  const firstDataset = (await as('/api/v1/datasets/derived.acme.crash_first')).body;
  t.equal(firstDataset.snapshot_count, 1, 'one snapshot of the first output');
});
