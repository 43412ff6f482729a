// Crash safety of transform runs: a worker killed mid-materialization (a child
// process running the platform, SIGKILL while the run's SQL is in flight).
// The run's job is retried in another process once its heartbeat stops: the
// retry takes the run over, stops the dead attempt's statement, materializes
// again and ends the run once. A job out of attempts fails its run (dead letter).
// Runs in its own process: it kills and restarts platform processes; a leak would hold a shared one.
import { spawn } from 'node:child_process';
import t from 'tap';
import { sql } from 'kysely';
import { ROOT_DIR } from '../../../core/paths.ts';
import { startTestPlatform, until, type TestPlatform } from 'agent-platform/sdk/testing';
import { transformsPlatform } from './helpers.ts';

const SLOW = 'SELECT (SELECT count(*) FROM raw.acme.orders) AS orders, count(*) AS n FROM generate_series(1, 7000) a, generate_series(1, 7000) b';

/** Queues a run of a slow transform, lets a child process's worker start its SQL, and kills the child. */
async function runKilledMidway(t: Tap, tp: TestPlatform, asAcme: Awaited<ReturnType<typeof transformsPlatform>>['asAcme'], env: Record<string, string> = {}) {
  const id = (await asAcme.post('/api/v1/transforms', { name: 'slow_count', sql: SLOW })).body.id;
  const child = spawn(process.execPath, ['core/cli/bin.ts', 'serve'], {
    cwd: ROOT_DIR, env: { ...tp.env, ...env, PORT: '0', LOG_LEVEL: 'silent', JOBS_POLL_INTERVAL_MS: '100' }, stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const runId = (await asAcme.post(`/api/v1/transforms/${id}/materialize`, { wait: false })).body.id as string;
  const row = () => tp.platform.core.withTenant('acme', async (trx) => (await sql<{ status: string; attempts: number; pid: number | null; tag: string | null }>`
    SELECT status, attempts, backend_pid AS pid, session_tag AS tag FROM transform_runs WHERE id = ${runId}::bigint`.execute(trx)).rows[0]!);
  const during = await until(async () => {
    const current = await row();
    return current.status === 'running' && current.pid !== null && current;
  }, 'the child to run the SQL', 60_000);
  child.kill('SIGKILL');
  await exited;
  return { id, runId, during, row };
}

type Tap = Parameters<typeof transformsPlatform>[0];

t.test('a run whose worker dies mid-SQL is taken over by a retry in another process and ends once', async (t) => {
  const { tp, acme, asAcme } = await transformsPlatform(t);
  const { runId, during, row } = await runKilledMidway(t, tp, asAcme);
  t.equal(during.attempts, 1);

  const next = await startTestPlatform(t, { databaseUrl: tp.databaseUrl, env: { ...tp.env, JOBS_SUPERVISE_INTERVAL_SECONDS: '1' } });
  await next.platform.start();
  const as = (url: string) => next.request({ url, token: acme.token, tenant: 'acme' });
  const ended = await until(async () => {
    const run = (await as(`/api/v1/transform-runs/${runId}`)).body;
    return ['succeeded', 'failed', 'cancelled'].includes(run.status) && run;
  }, 'the retry to finish the run', 120_000);
  t.equal(ended.status, 'succeeded', JSON.stringify(ended.error));
  t.equal(ended.rows, 1);
  t.equal((await row()).attempts, 2, 'the second attempt owned and ended it');
  const logs = (await as(`/api/v1/transform-runs/${runId}/logs`)).body.items.map((line: { message: string }) => line.message);
  t.ok(logs.some((message: string) => message.startsWith('attempt 2: the previous attempt')), 'the takeover is logged');
  const { rows: stale } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${during.tag}`.execute(tp.platform.core.db);
  t.equal(stale[0]!.n, 0, 'the dead attempt\'s statement no longer runs');
  const events = await tp.platform.core.withTenant('acme', (trx) => sql<{ type: string }>`
    SELECT type FROM events WHERE type LIKE 'transform.run.%' AND data->>'run_id' = ${runId}`.execute(trx));
  t.same(events.rows.map((e) => e.type), ['transform.run.completed'], 'one end, one event');
  t.equal((await as('/api/v1/datasets/derived.acme.slow_count')).body.snapshot_count, 1, 'one snapshot: the dead attempt wrote nothing');
});

t.test('a run whose job is out of attempts fails with TRANSFORM_RUN_ABORTED (dead letter)', async (t) => {
  const env = { PIPELINES_TRANSFORM_RUN_RETRY_LIMIT: '0' };
  const { tp, acme, asAcme } = await transformsPlatform(t, env);
  const { runId } = await runKilledMidway(t, tp, asAcme, env);
  const next = await startTestPlatform(t, { databaseUrl: tp.databaseUrl, env: { ...tp.env, ...env, JOBS_SUPERVISE_INTERVAL_SECONDS: '1' } });
  await next.platform.start();
  const as = (url: string) => next.request({ url, token: acme.token, tenant: 'acme' });
  const ended = await until(async () => {
    const run = (await as(`/api/v1/transform-runs/${runId}`)).body;
    return run.status !== 'running' && run;
  }, 'the dead letter to fail the run', 120_000);
  t.match(ended, { status: 'failed', error: { code: 'TRANSFORM_RUN_ABORTED' } });
  t.match(ended.error.message, /ran out of attempts/);
  const events = await tp.platform.core.withTenant('acme', (trx) => sql<{ type: string }>`
    SELECT type FROM events WHERE type LIKE 'transform.run.%' AND data->>'run_id' = ${runId}`.execute(trx));
  t.same(events.rows.map((e) => e.type), ['transform.run.failed']);
  t.equal((await as('/api/v1/datasets/derived.acme.slow_count')).body.snapshot_count, 0, 'nothing was written');
});
