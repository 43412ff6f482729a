// Durability: events emitted while no worker runs wait and are dispatched
// later, in order; a dispatcher stopped, or killed with SIGKILL in the middle
// of a batch, loses nothing and dispatches nothing twice once a new process
// takes over on the same database.
// Runs in its own process: it kills and restarts platform processes; a leak would hold a shared one.
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { ROOT_DIR } from '../../../core/paths.ts';
import { tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';
import { createTrigger, createWorkflow, rawClient, startEventsPlatform, until } from './helpers.ts';
import type pg from 'pg';

const SMALL_BATCHES = 'plugins/events/test/fixtures/events-small-batches.yaml';
const EVENTS = 300;

/** A platform without workers (HTTP API only), a tenant, a workflow and a trigger on every order. */
async function apiOnly(t: Tap) {
  const tp = await startEventsPlatform(t, { env: { PLATFORM_MANIFEST: SMALL_BATCHES } });
  const { token } = await tenantWithAdmin(tp, 'acme');
  await createWorkflow(tp, token, 'record');
  await createTrigger(tp, token, { name: 'orders', event_type: 'order.created', target_name: 'record', input_mapping: { n: '{{event.data.n}}' } });
  return { tp, token };
}
type Tap = Parameters<typeof startEventsPlatform>[0];

async function emitOrders(tp: TestPlatform, count: number) {
  const { core } = tp.platform;
  for (let n = 0; n < count; n += 10) {
    await Promise.all(Array.from({ length: Math.min(10, count - n) }, (_, i) =>
      core.withTenant('acme', (trx) => core.events.emit(trx, 'acme', { type: 'order.created', source: '/shop', data: { n: n + i } }))));
  }
}

/** How many events the stream holds (`last`) and how many of them the cursor has passed (`cursor`). */
async function progress(client: pg.Client) {
  const { rows } = await client.query(`
    SELECT (SELECT count(*) FROM events WHERE tenant_id = 'acme')::int AS last,
           (SELECT count(*) FROM events e JOIN event_cursors c USING (tenant_id)
             WHERE e.tenant_id = 'acme' AND (e.xid, e.seq) <= (c.dispatched_xid, c.dispatched_seq))::int AS cursor`);
  return rows[0] as { last: number; cursor: number };
}

/** Every order event was dispatched exactly once, and started exactly one execution. */
async function assertExactlyOnce(t: Test, client: pg.Client) {
  const { rows: orderSeqs } = await client.query(`SELECT seq FROM events WHERE tenant_id = 'acme' AND type = 'order.created' ORDER BY seq`);
  const { rows: dispatches } = await client.query(`
    SELECT event_seq, count(*)::int AS n FROM trigger_dispatches WHERE trigger_name = 'orders' GROUP BY event_seq ORDER BY event_seq`);
  t.equal(orderSeqs.length, EVENTS, 'every event is on the stream');
  t.same(dispatches.map((d) => Number(d.event_seq)), orderSeqs.map((r) => Number(r.seq)), 'every event was dispatched');
  t.ok(dispatches.every((d) => d.n === 1), 'none twice');
  const { rows: executions } = await client.query(`
    SELECT inputs->>'n' AS n, count(*)::int AS c FROM workflow_executions WHERE workflow_name = 'record' GROUP BY 1`);
  t.equal(executions.length, EVENTS, 'one execution per event');
  t.ok(executions.every((e) => e.c === 1), 'no event started two');
  const { rows: order } = await client.query(`SELECT event_seq FROM trigger_dispatches WHERE trigger_name = 'orders' ORDER BY id`);
  const { rows: stream } = await client.query(`SELECT seq FROM events WHERE tenant_id = 'acme' AND type = 'order.created' ORDER BY xid, seq`);
  t.same(order.map((r) => Number(r.event_seq)), stream.map((r) => Number(r.seq)), 'dispatched in stream order (transaction, then number)');
}

t.test('events wait while no worker runs, and a dispatcher stopped mid-stream is taken over by a new process', async (t) => {
  const { tp } = await apiOnly(t);
  const client = await rawClient(t, tp.databaseUrl);
  await emitOrders(tp, EVENTS);
  t.equal((await progress(client)).cursor, 0, 'without workers nothing is dispatched, nothing is lost');

  const first = await startEventsPlatform(t, { databaseUrl: tp.databaseUrl, env: { PLATFORM_MANIFEST: SMALL_BATCHES } });
  await first.platform.start();
  await until(async () => (await progress(client)).cursor > 20, 'the first dispatcher to get going');
  await first.stop();
  const stoppedAt = await progress(client);
  t.ok(stoppedAt.cursor < stoppedAt.last, `stopped mid-stream (${stoppedAt.cursor} of ${stoppedAt.last})`);
  const { rows: locked } = await client.query('SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE locked_by IS NOT NULL');
  t.equal(locked[0].n, 0, 'a graceful stop leaves no job locked');

  const second = await startEventsPlatform(t, { databaseUrl: tp.databaseUrl, env: { PLATFORM_MANIFEST: SMALL_BATCHES } });
  await second.platform.start();
  await until(async () => { const p = await progress(client); return p.cursor === p.last; }, 'the second dispatcher to finish', 60_000);
  await assertExactlyOnce(t, client);
});

t.test('a dispatcher killed with SIGKILL in the middle of a batch loses nothing and repeats nothing', async (t) => {
  const { tp } = await apiOnly(t);
  const client = await rawClient(t, tp.databaseUrl);
  await emitOrders(tp, EVENTS);

  const child = spawn(process.execPath, ['core/cli/bin.ts', 'serve'], {
    cwd: ROOT_DIR,
    env: { ...tp.env, PLATFORM_MANIFEST: SMALL_BATCHES, LOG_LEVEL: 'silent', JOBS_POLL_INTERVAL_MS: '100' },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  await until(async () => (await progress(client)).cursor >= 30, 'the child to dispatch', 60_000);
  child.kill('SIGKILL');
  await exited;
  const killedAt = await progress(client);
  t.ok(killedAt.cursor < killedAt.last, `killed mid-stream (${killedAt.cursor} of ${killedAt.last})`);

  // The killed process's jobs stay locked by its workers, whose heartbeats
  // stopped: the next process's liveness sweep (core/jobs/liveness.ts)
  // releases them once they are older than JOBS_WORKER_STALE_SECONDS.
  const { rows: locked } = await client.query('SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE locked_by IS NOT NULL');
  t.comment(`jobs left locked by the killed process: ${locked[0].n}`);
  const next = await startEventsPlatform(t, { databaseUrl: tp.databaseUrl, env: { PLATFORM_MANIFEST: SMALL_BATCHES, JOBS_WORKER_STALE_SECONDS: '2' } });
  await next.platform.start();
  await until(async () => { const p = await progress(client); return p.cursor === p.last; }, 'the new process to finish', 60_000);
  await assertExactlyOnce(t, client);
});
