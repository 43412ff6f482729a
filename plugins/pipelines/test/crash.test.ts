// A worker killed mid-run (a child process running the platform, SIGKILL
// while a step's SQL is in flight): the step that had settled is not run
// again, the killed step is retried in another process once its job's
// heartbeat stops, and the run completes with every step's output.
// Runs in its own process: it kills and restarts platform processes; a leak would hold a shared one.
import { spawn } from 'node:child_process';
import t from 'tap';
import { sql } from 'kysely';
import { ROOT_DIR } from '../../../core/paths.ts';
import { startTestPlatform, until } from 'agent-platform/sdk/testing';
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

t.test('a cancel stops a step\'s statement running in another process (pg_cancel_backend of the pid on the step row)', async (t) => {
  const { tp, asAcme } = await pipelinesPlatform(t);
  // Hours of work: only the cancel can end it.
  const steps = [{ id: 'endless', sql: 'SELECT count(*) AS n FROM generate_series(1, 400000) a, generate_series(1, 400000) b', output: 'endless_out', inputs: [] }];
  const id = (await asAcme('POST', '/api/v1/pipelines', { name: 'endless', steps })).body.id;
  t.equal((await asAcme('POST', `/api/v1/pipelines/${id}/activate`, { force: true })).status, 200);
  // Only the child works jobs: the step runs there, this process has no signal to abort.
  const child = spawn(process.execPath, ['core/cli/bin.ts', 'serve'], {
    cwd: ROOT_DIR, env: { ...tp.env, PORT: '0', LOG_LEVEL: 'silent', JOBS_POLL_INTERVAL_MS: '100' }, stdio: 'ignore',
  });
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const run = (await asAcme('POST', '/api/v1/temporal/workflows/pipeline', { pipeline_id: id })).body.workflow_id;
  const backend = await until(async () => {
    const { rows } = await tp.platform.core.withTenant('acme', (trx) => sql<{ pid: number | null; tag: string | null }>`
      SELECT backend_pid AS pid, session_tag AS tag FROM pipeline_run_steps WHERE run_id = ${run} AND step_id = 'endless'`.execute(trx));
    return rows[0]?.pid ? rows[0] : false;
  }, 'the child to start the step\'s statement', 60_000);
  t.match(backend.tag, /^transform:/, 'the step row holds the statement\'s session tag');

  const cancelled = await asAcme('POST', `/api/v1/temporal/workflows/${run}/cancel`);
  t.match(cancelled.body, { status: 'cancelled', is_terminal: true });
  const settled = await until(async () => {
    const read = (await asAcme('GET', `/api/v1/temporal/workflows/${run}`)).body;
    return read.result.steps[0].status !== 'running' && read;
  }, 'the statement in the child to stop', 60_000);
  t.match(settled.result.steps[0], { status: 'cancelled', error: 'cancelled' }, 'the child\'s step settled as cancelled');
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${backend.tag}`.execute(tp.platform.core.db);
  t.equal(rows[0]!.n, 0, 'its statement no longer runs');
  t.equal((await asAcme('GET', '/api/v1/datasets/derived.acme.endless_out')).body.snapshot_count ?? 0, 0, 'nothing was written');
});

t.test('a step job out of attempts fails the step, skips its dependents and fails the run (dead letter)', async (t) => {
  const env = { PIPELINES_STEP_RETRY_LIMIT: '0' };
  const { tp, acme, asAcme } = await pipelinesPlatform(t, env);
  const steps = [
    { id: 'slow', sql: 'SELECT count(*) AS n FROM generate_series(1, 400000) a, generate_series(1, 400000) b', output: 'dead_slow', inputs: [ORDERS] },
    { id: 'after', sql: 'SELECT n FROM derived.acme.dead_slow', output: 'dead_after', inputs: ['slow'] },
  ];
  const id = (await asAcme('POST', '/api/v1/pipelines', { name: 'deadly', steps })).body.id;
  t.equal((await asAcme('POST', `/api/v1/pipelines/${id}/activate`, { force: true })).status, 200);
  const child = spawn(process.execPath, ['core/cli/bin.ts', 'serve'], {
    cwd: ROOT_DIR, env: { ...tp.env, ...env, PORT: '0', LOG_LEVEL: 'silent', JOBS_POLL_INTERVAL_MS: '100' }, stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const run = (await asAcme('POST', '/api/v1/temporal/workflows/pipeline', { pipeline_id: id })).body.workflow_id;
  const backend = await until(async () => {
    const { rows } = await tp.platform.core.withTenant('acme', (trx) => sql<{ pid: number | null; tag: string | null }>`
      SELECT backend_pid AS pid, session_tag AS tag FROM pipeline_run_steps WHERE run_id = ${run} AND step_id = 'slow'`.execute(trx));
    return rows[0]?.pid ? rows[0] : false;
  }, 'the child to start the slow step\'s statement', 60_000);
  child.kill('SIGKILL');
  await exited;

  const next = await startTestPlatform(t, { databaseUrl: tp.databaseUrl, env: { ...tp.env, ...env, JOBS_SUPERVISE_INTERVAL_SECONDS: '1' } });
  await next.platform.start();
  const as = (url: string) => next.request({ url, token: acme.token, tenant: 'acme' });
  const settled = await until(async () => {
    const current = (await as(`/api/v1/temporal/workflows/${run}`)).body;
    return current.is_terminal && current;
  }, 'the dead letter to fail the step', 120_000);
  t.equal(settled.status, 'failed');
  t.match(settled.result.steps[0], { step_id: 'slow', status: 'failed', error: /^STEP_ABORTED: .*ran out of attempts/ });
  t.match(settled.result.steps[1], { step_id: 'after', status: 'skipped' });
  const events = await tp.platform.core.withTenant('acme', (trx) => sql<{ type: string; status: string }>`
    SELECT type, data->>'status' AS status FROM events WHERE type IN ('pipeline.run.completed', 'pipeline.run.failed') AND data->>'run_id' = ${run}`.execute(trx));
  t.same(events.rows, [{ type: 'pipeline.run.failed', status: 'failed' }], 'one end, one event');
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${backend.tag}`.execute(tp.platform.core.db);
  t.equal(rows[0]!.n, 0, 'the dead attempt\'s statement no longer runs');
  t.equal((await as('/api/v1/datasets/derived.acme.dead_slow')).body.snapshot_count ?? 0, 0, 'nothing was written');
});
