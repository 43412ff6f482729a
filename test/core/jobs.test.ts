import t from 'tap';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { startTestPlatform, until } from '../harness.ts';
import { ROOT_DIR } from '../../core/paths.ts';

const manifest = path.join(ROOT_DIR, 'test', 'fixtures', 'manifests', 'job-probe.yaml');

/** The marks in the order they were written. */
async function marksInOrder(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(`SELECT mark FROM job_probe_marks ORDER BY at, mark`)).rows.map((row) => row.mark);
  } finally {
    await client.end();
  }
}

async function marks(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT mark AS key FROM job_probe_marks ORDER BY mark`);
    return rows.map((row) => row.key);
  } finally {
    await client.end();
  }
}

const waitFor = (check: () => Promise<boolean>, what: string) => until(check, what, 20_000);

t.test('stopping drains jobs in flight on both queues: none lost', async (t) => {
  const tp = await startTestPlatform(t, { listen: true, env: { PLATFORM_MANIFEST: manifest } });
  t.equal((await tp.request({ method: 'POST', url: '/test/probe/fast', payload: { id: 'f1', ms: 1500 } })).status, 202);
  t.equal((await tp.request({ method: 'POST', url: '/test/probe/long', payload: { id: 'l1', ms: 1500 } })).status, 202);
  await waitFor(async () => (await marks(tp.databaseUrl)).filter((k) => k.endsWith(':started')).length === 2, 'both jobs to start');
  t.same(await marks(tp.databaseUrl), ['probe:f1:started', 'probe:l1:started'], 'both in flight, neither done');

  await tp.stop();
  t.same(await marks(tp.databaseUrl), ['probe:f1:done', 'probe:f1:started', 'probe:l1:done', 'probe:l1:started'], 'both finished before stop returned');

  const client = new pg.Client({ connectionString: tp.databaseUrl });
  await client.connect();
  t.teardown(() => client.end());
  const pending = await client.query(`SELECT count(*)::int AS n FROM graphile_worker.jobs`);
  t.equal(pending.rows[0].n, 0, 'the fast job is gone from its queue');
  const boss = await client.query(`SELECT state FROM pgboss.job WHERE name = 'probe_long'`);
  t.same(boss.rows.map((r) => r.state), ['completed'], 'the long job is completed');
});

t.test('jobs enqueued in a transaction exist only if it commits; job keys replace', async (t) => {
  const tp = await startTestPlatform(t, { env: { PLATFORM_MANIFEST: manifest } });
  const { core } = tp.platform;
  await tp.request({ method: 'POST', url: '/api/admin/tenants', token: tp.adminToken, payload: { id: 'jobs' } });

  await t.rejects(
    core.withTenant('jobs', async (trx) => {
      await core.jobs.enqueue('probe_fast', { id: 'rolled-back', ms: 0 }, { trx });
      await core.jobs.enqueueLong('probe_long', { id: 'rolled-back', ms: 0 }, { trx });
      throw new Error('abort the transaction');
    }),
    /abort the transaction/,
  );
  await core.withTenant('jobs', async (trx) => {
    await core.jobs.enqueue('probe_fast', { id: 'committed', ms: 0 }, { trx, queue: 'tenant:jobs' });
    await core.jobs.enqueueLong('probe_long', { id: 'committed', ms: 0 }, { trx });
  });
  const fast = await sql<{ payload: { id: string }; queue_name: string }>`
    SELECT j.payload, q.queue_name FROM graphile_worker._private_jobs j
    LEFT JOIN graphile_worker._private_job_queues q ON q.id = j.job_queue_id`.execute(core.db);
  t.same(fast.rows.map((r) => [r.payload.id, r.queue_name]), [['committed', 'tenant:jobs']]);
  const long = await sql<{ data: { id: string } }>`SELECT data FROM pgboss.job WHERE name = 'probe_long'`.execute(core.db);
  t.same(long.rows.map((r) => r.data.id), ['committed']);

  const later = new Date(Date.now() + 3_600_000);
  const latest = new Date(Date.now() + 7_200_000);
  await core.jobs.enqueue('probe_fast', { id: 'timer-1', ms: 0 }, { jobKey: 'timer', runAt: later });
  await core.jobs.enqueue('probe_fast', { id: 'timer-2', ms: 0 }, { jobKey: 'timer', runAt: latest });
  const timers = await sql<{ payload: { id: string }; run_at: Date }>`
    SELECT payload, run_at FROM graphile_worker._private_jobs WHERE key = 'timer'`.execute(core.db);
  t.equal(timers.rows.length, 1, 'a job key holds one job');
  t.equal(timers.rows[0].payload.id, 'timer-2', 'the later enqueue replaced the earlier');
  t.equal(timers.rows[0].run_at.getTime(), latest.getTime());
  await core.jobs.removeJob('timer');
  const removed = await sql<{ n: number }>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = 'timer'`.execute(core.db);
  t.equal(removed.rows[0].n, 0, 'a keyed job can be cancelled');
});

t.test('enqueueMany adds a batch in one call, in the tenant transaction: all or none; a job key replaces, the later spec wins', async (t) => {
  const tp = await startTestPlatform(t, { env: { PLATFORM_MANIFEST: manifest } });
  const { core } = tp.platform;
  await tp.request({ method: 'POST', url: '/api/admin/tenants', token: tp.adminToken, payload: { id: 'batch' } });
  const jobs = () => sql<{ id: string; queue_name: string | null; key: string | null; max_attempts: number; priority: number; run_at: Date }>`
    SELECT j.payload->>'id' AS id, q.queue_name, j.key, j.max_attempts, j.priority, j.run_at FROM graphile_worker._private_jobs j
    LEFT JOIN graphile_worker._private_job_queues q ON q.id = j.job_queue_id ORDER BY 1`.execute(core.db).then((r) => r.rows);

  await t.rejects(core.withTenant('batch', async (trx) => {
    await core.jobs.enqueueMany([{ name: 'probe_fast', payload: { id: 'gone-1', ms: 0 } }, { name: 'probe_fast', payload: { id: 'gone-2', ms: 0 } }], trx);
    throw new Error('abort the transaction');
  }), /abort the transaction/);
  t.same(await jobs(), [], 'a rolled-back batch leaves no job');

  const later = new Date(Date.now() + 3_600_000);
  await core.jobs.enqueue('probe_fast', { id: 'keyed-before', ms: 0 }, { jobKey: 'batch-key', runAt: later });
  await core.withTenant('batch', (trx) => core.jobs.enqueueMany([
    { name: 'probe_fast', payload: { id: 'plain', ms: 0 } },
    { name: 'probe_fast', payload: { id: 'queued', ms: 0 }, queue: 'tenant:batch', maxAttempts: 3, priority: -1 },
    { name: 'probe_fast', payload: { id: 'keyed-1', ms: 0 }, jobKey: 'batch-key', runAt: later },
    { name: 'probe_fast', payload: { id: 'keyed-2', ms: 0 }, jobKey: 'batch-key', runAt: later },
  ], trx));
  await core.jobs.enqueueMany([]);
  const rows = await jobs();
  t.same(rows.map((r) => [r.id, r.queue_name, r.key, r.max_attempts, r.priority]), [
    ['keyed-2', null, 'batch-key', 25, 0],
    ['plain', null, null, 25, 0],
    ['queued', 'tenant:batch', null, 3, -1],
  ], 'one job per key (the pending one replaced by the later spec), the others as given');
  t.equal(rows[0].run_at.getTime(), later.getTime());
});

t.test('enqueueMany sends queries alongside in the same statement: they commit (or roll back) with the jobs', async (t) => {
  const tp = await startTestPlatform(t, { env: { PLATFORM_MANIFEST: manifest } });
  const { core } = tp.platform;
  const state = async () => ({
    jobs: (await sql<{ id: string }>`SELECT payload->>'id' AS id FROM graphile_worker._private_jobs ORDER BY 1`.execute(core.db)).rows.map((r) => r.id),
    settings: (await sql<{ key: string }>`SELECT key FROM platform_settings WHERE key LIKE 'alongside.%' ORDER BY 1`.execute(core.db)).rows.map((r) => r.key),
  });
  const alongside = (key: string) => [
    sql`INSERT INTO platform_settings (key, value) VALUES (${`alongside.${key}`}, 'a')`,
    sql`INSERT INTO platform_settings (key, value) VALUES (${`alongside.${key}.second`}, 'b')`,
  ];

  await t.rejects(core.db.transaction().execute(async (trx) => {
    await core.jobs.enqueueMany([{ name: 'probe_fast', payload: { id: 'gone', ms: 0 } }], trx, { alongside: alongside('gone') });
    throw new Error('abort the transaction');
  }), /abort the transaction/);
  t.same(await state(), { jobs: [], settings: [] }, 'rolled back together');

  await core.db.transaction().execute((trx) => core.jobs.enqueueMany([{ name: 'probe_fast', payload: { id: 'kept', ms: 0 } }], trx, { alongside: alongside('kept') }));
  await core.db.transaction().execute((trx) => core.jobs.enqueueMany([], trx, { alongside: alongside('alone') }));
  t.same(await state(), { jobs: ['kept'], settings: ['alongside.alone', 'alongside.alone.second', 'alongside.kept', 'alongside.kept.second'] },
    'committed together; with no job the queries still run');
  await t.rejects(core.jobs.enqueueMany([{ name: 'probe_fast', payload: { id: 'x', ms: 0 } }], undefined, { alongside: alongside('x') }), /need the transaction/);
});

t.test('a job queued behind a running job of its named queue runs when that one completes, not at the next poll', async (t) => {
  // A minute between polls: only the wake-up trigger on graphile-worker's
  // queue table can start the second job within the deadline below.
  const tp = await startTestPlatform(t, { env: { PLATFORM_MANIFEST: manifest, JOBS_POLL_INTERVAL_MS: '60000' } });
  const { core } = tp.platform;
  await tp.request({ method: 'POST', url: '/api/admin/tenants', token: tp.adminToken, payload: { id: 'queued' } });
  await tp.platform.start();
  const enqueue = (id: string, ms: number) => core.withTenant('queued', (trx) => core.jobs.enqueue('probe_fast', { id, ms }, { trx, queue: 'tenant:queued' }));
  await enqueue('first', 1500);
  await waitFor(async () => (await marks(tp.databaseUrl)).includes('probe:first:started'), 'the first job to start');
  await enqueue('second', 0);
  await waitFor(async () => (await marks(tp.databaseUrl)).includes('probe:second:done'), 'the second job to run once the first completed');
  t.same(await marks(tp.databaseUrl), ['probe:first:done', 'probe:first:started', 'probe:second:done', 'probe:second:started'],
    'both ran, the second well before the next poll');
});

t.test('cron schedules carry their IANA time zone', async (t) => {
  const tp = await startTestPlatform(t, { env: { PLATFORM_MANIFEST: manifest } });
  const { jobs } = tp.platform.core;
  await tp.platform.start();
  await jobs.schedule('probe_long', 'nightly-oslo', '30 2 * * *', { tz: 'Europe/Oslo', data: { id: 'cron', ms: 0 } });
  const rows = await sql<{ cron: string; timezone: string; key: string }>`SELECT cron, timezone, key FROM pgboss.schedule WHERE name = 'probe_long'`.execute(tp.platform.core.db);
  t.same(rows.rows, [{ cron: '30 2 * * *', timezone: 'Europe/Oslo', key: 'nightly-oslo' }]);
  await jobs.unschedule('probe_long', 'nightly-oslo');
  const after = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.schedule WHERE name = 'probe_long'`.execute(tp.platform.core.db);
  t.equal(after.rows[0].n, 0);
});

t.test('a job locked by a dead worker is released by the liveness sweep and runs; a live worker keeps its long job', async (t) => {
  const tp = await startTestPlatform(t, { env: { PLATFORM_MANIFEST: manifest, JOBS_WORKER_STALE_SECONDS: '2' } });
  const client = new pg.Client({ connectionString: tp.databaseUrl });
  await client.connect();
  t.teardown(() => client.end());
  // A job a crashed process had taken: locked by a worker with no heartbeat.
  await tp.platform.core.jobs.enqueue('probe_fast', { id: 'orphan', ms: 0 });
  await client.query(`UPDATE graphile_worker._private_jobs SET locked_by = 'worker-dead', locked_at = now() - interval '10 seconds', attempts = 1`);

  await tp.platform.start();
  await waitFor(async () => (await marks(tp.databaseUrl)).includes('probe:orphan:done'), 'the orphaned job to run again');
  const { rows: workers } = await client.query('SELECT worker_id FROM platform_job_workers');
  t.ok(workers.length > 0 && workers.every((w) => w.worker_id !== 'worker-dead'), 'live workers heartbeat; the dead one is not listed');

  // A job running longer than the stale threshold in a live process is not taken from it.
  t.equal((await tp.request({ method: 'POST', url: '/test/probe/fast', payload: { id: 'long-running', ms: 5000 } })).status, 202);
  await waitFor(async () => (await marks(tp.databaseUrl)).includes('probe:long-running:started'), 'the long job to start');
  await new Promise((resolve) => setTimeout(resolve, 3500));
  const { rows: locks } = await client.query(`SELECT locked_by FROM graphile_worker._private_jobs WHERE locked_by IS NOT NULL`);
  t.equal(locks.length, 1, 'still locked by its live worker past the stale threshold');
  await waitFor(async () => (await marks(tp.databaseUrl)).includes('probe:long-running:done'), 'the long job to finish');

  await tp.stop();
  const { rows: after } = await client.query('SELECT count(*)::int AS n FROM platform_job_workers');
  t.equal(after[0].n, 0, 'a graceful stop removes its workers');
});

t.test("a long task's signal aborts when pg-boss expires its job, before the retry starts", async (t) => {
  // pg-boss fails an expired job (and so starts its retry) on its supervision pass: every second here, not every minute.
  const tp = await startTestPlatform(t, { listen: true, env: { PLATFORM_MANIFEST: manifest, JOBS_SUPERVISE_INTERVAL_SECONDS: '1' } });
  // expireInSeconds is 1; without the abort the handler would run on for 8 s beside its retry.
  // The probe marks whichever comes first, its signal or the end of its work, so the marks' order tells what happened.
  t.equal((await tp.request({ method: 'POST', url: '/test/probe/expiring', payload: { id: 'x1', ms: 8000 } })).status, 202);
  await until(async () => (await marks(tp.databaseUrl)).includes('probe:x1:2:aborted'), 'the retry to expire as well', 60_000);
  t.same(await marksInOrder(tp.databaseUrl), ['probe:x1:1:started', 'probe:x1:1:aborted', 'probe:x1:2:started', 'probe:x1:2:aborted'],
    'each run was aborted at its expiry, not after its 8 s of work, and the first before its retry started: never both running');
});

t.test('a long job of a killed process is retried by another once its heartbeat stops (heartbeatSeconds)', async (t) => {
  const { spawn } = await import('node:child_process');
  // The database and settings of a platform that runs no workers itself.
  const tp = await startTestPlatform(t, { env: { PLATFORM_MANIFEST: manifest } });
  const child = spawn(process.execPath, ['core/cli/bin.ts', 'serve'], {
    cwd: ROOT_DIR, env: { ...tp.env, PORT: '0', LOG_LEVEL: 'silent', JOBS_POLL_INTERVAL_MS: '100' }, stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  await tp.platform.core.jobs.enqueueLong('probe_heartbeat', { id: 'hb', ms: 600_000 });
  await waitFor(async () => (await marks(tp.databaseUrl)).includes('probe:hb:1:started'), 'the child to start the job');
  child.kill('SIGKILL');
  await exited;

  const next = await startTestPlatform(t, { databaseUrl: tp.databaseUrl, env: { PLATFORM_MANIFEST: manifest, JOBS_SUPERVISE_INTERVAL_SECONDS: '1' } });
  await next.platform.start();
  await until(async () => (await marks(tp.databaseUrl)).includes('probe:hb:2:done'), 'the retry in the new process', 40_000);
  t.notOk((await marks(tp.databaseUrl)).includes('probe:hb:1:done'), 'the killed attempt never finished');
});

t.test('dead letters: a task may opt out (deadLetter: false); a dead letter task gets no *.dead.dead queue', async (t) => {
  const { JobService } = await import('../../core/jobs/index.ts');
  const { pino } = await import('pino');
  const tp = await startTestPlatform(t, { env: { PLATFORM_MANIFEST: manifest } });
  const pool = new pg.Pool({ connectionString: tp.databaseUrl, max: 2 });
  pool.on('error', () => {});
  t.teardown(() => pool.end());
  const boot = async (options: { deadLetter?: boolean }) => {
    const jobs = new JobService({
      pool, connectionString: tp.databaseUrl, logger: pino({ level: 'silent' }), pollIntervalMs: 100, concurrency: 1, localQueueSize: 1,
      shutdownTimeoutMs: 1000, workerStaleSeconds: 60, superviseIntervalSeconds: 60, embedded: false,
    });
    await jobs.prepare();
    const noop = async () => {};
    jobs.defineLongTask('dl_optout', noop, options);
    jobs.defineLongTask('dl_main', noop);
    jobs.defineLongTask('dl_main.dead', noop, { retryLimit: 5 });
    await jobs.initialize();
    await jobs.stop();
  };
  const queues = async () => (await pool.query<{ name: string; dead_letter: string | null }>(
    `SELECT name, dead_letter FROM pgboss.queue WHERE name LIKE 'dl\\_%' ORDER BY name`)).rows;

  await boot({ deadLetter: true });
  t.same(await queues(), [
    { name: 'dl_main', dead_letter: 'dl_main.dead' }, { name: 'dl_main.dead', dead_letter: null },
    { name: 'dl_optout', dead_letter: 'dl_optout.dead' }, { name: 'dl_optout.dead', dead_letter: null },
  ], 'dead letters by default; the dead letter task has none of its own');
  await boot({ deadLetter: false });
  t.same((await queues()).find((q) => q.name === 'dl_optout'), { name: 'dl_optout', dead_letter: null }, 'a later boot opting out clears the dead letter');
  const retry = await pool.query<{ retry_limit: number }>(`SELECT retry_limit FROM pgboss.queue WHERE name = 'dl_main.dead'`);
  t.equal(retry.rows[0]!.retry_limit, 5, 'the dead letter task\'s own policy applies');
});

t.test('a long job starts as soon as its enqueueing commits, not at the next poll', async (t) => {
  // A minute between polls: only pg-boss's NOTIFY of the new job (the queues'
  // `notify`, its LISTEN connection) can start the second job within the deadline below.
  const tp = await startTestPlatform(t, { env: { PLATFORM_MANIFEST: manifest, JOBS_POLL_INTERVAL_MS: '60000' } });
  const { core } = tp.platform;
  await tp.request({ method: 'POST', url: '/api/admin/tenants', token: tp.adminToken, payload: { id: 'woken' } });
  await tp.platform.start();
  const enqueue = (id: string) => core.withTenant('woken', (trx) => core.jobs.enqueueLong('probe_long', { id, ms: 0 }, { trx }));
  await enqueue('first');
  await waitFor(async () => (await marks(tp.databaseUrl)).includes('probe:first:done'), 'the first long job to run');
  // Its worker has fetched again and found nothing: it now sleeps until the next poll.
  await enqueue('second');
  await waitFor(async () => (await marks(tp.databaseUrl)).includes('probe:second:done'), 'the second long job to run, woken by its NOTIFY');
  t.same(await marks(tp.databaseUrl), ['probe:first:done', 'probe:first:started', 'probe:second:done', 'probe:second:started']);
});
