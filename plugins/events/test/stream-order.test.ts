// The stream's order and its proof under concurrency: appends take ordinary
// numbers and never wait on each other; the dispatcher (and every reader in
// stream order) reads only below the visibility horizon, so a transaction
// still running with an earlier position is never skipped, and no event is
// dispatched twice. Also: an appending connection killed mid-transaction
// leaves no event and holds nothing back once gone, and a wake lost to a
// crash is found by the sweep of the next process to start.
import t from 'tap';
import type pg from 'pg';
import { sql } from 'agent-platform/sdk';
import { createTrigger, createWorkflow, dispatchesOf, eventsFixture, rawClient, startEventsPlatform, until } from './helpers.ts';
import { tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A platform whose trigger `orders` records every order.created it dispatches. */
async function ordersFixture(t: Parameters<typeof eventsFixture>[0]) {
  const fixture = await eventsFixture(t);
  await createTrigger(fixture.tp, fixture.token, { name: 'orders', event_type: 'order.created', target_name: 'record', input_mapping: { n: '{{event.data.n}}' } });
  return fixture;
}

const emitIn = (tp: TestPlatform, trx: Parameters<Parameters<TestPlatform['platform']['core']['withTenant']>[1]>[0], n: number) =>
  tp.platform.core.events.emit(trx, 'acme', { type: 'order.created', source: '/shop', data: { n } });

const emitNow = (tp: TestPlatform, n: number) => tp.platform.core.withTenant('acme', (trx) => emitIn(tp, trx, n));

/** The `n` of each order the trigger dispatched, in dispatch order. */
async function dispatchedOrders(client: pg.Client): Promise<number[]> {
  const { rows } = await client.query(`
    SELECT (e.data->>'n')::int AS n FROM trigger_dispatches d JOIN events e ON e.tenant_id = d.tenant_id AND e.seq = d.event_seq
    WHERE d.trigger_name = 'orders' ORDER BY d.id`);
  return rows.map((row) => row.n);
}

/** Opens a tenant transaction and keeps it open until `release` is called; `work` runs in it first. */
function heldTransaction(tp: TestPlatform, work: (trx: Parameters<Parameters<TestPlatform['platform']['core']['withTenant']>[1]>[0]) => Promise<unknown>) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => { release = resolve; });
  let ready!: () => void;
  const started = new Promise<void>((resolve) => { ready = resolve; });
  const done = tp.platform.core.withTenant('acme', async (trx) => {
    await work(trx);
    ready();
    await released;
  });
  return { started, release, done };
}

t.test('an event committed after a slower transaction took an earlier position waits for it; both are dispatched once, in stream order', async (t) => {
  const { tp, token } = await ordersFixture(t);
  const client = await rawClient(t, tp.databaseUrl);
  const slow = heldTransaction(tp, (trx) => emitIn(tp, trx, 1));
  await slow.started;
  const fast = await emitNow(tp, 2) as { seq: number };
  await sleep(600);
  t.same(await dispatchedOrders(client), [], 'the committed event is not dispatched while an earlier transaction runs');
  const { rows: cursor } = await client.query(`SELECT dispatched_seq FROM event_cursors WHERE tenant_id = 'acme'`);
  t.not(Number(cursor[0]?.dispatched_seq), fast.seq, 'the cursor has not passed it');
  slow.release();
  await slow.done;
  await until(async () => (await dispatchedOrders(client)).length === 2, 'both orders to be dispatched');
  t.same(await dispatchedOrders(client), [1, 2], 'the slow transaction\'s event first: its position is earlier');
  await sleep(300);
  t.same(await dispatchedOrders(client), [1, 2], 'none twice');
  t.equal((await dispatchesOf(tp, token, 'orders')).length, 2);
});

t.test('a transaction that appends after a later one committed still lands before it: stream order is by transaction, then number', async (t) => {
  const { tp } = await ordersFixture(t);
  const client = await rawClient(t, tp.databaseUrl);
  const api = tp.platform.server.plugins.events.api;
  let xidTaken!: () => void;
  const hasXid = new Promise<void>((resolve) => { xidTaken = resolve; });
  let goOn!: () => void;
  const proceed = new Promise<void>((resolve) => { goOn = resolve; });
  // The slow transaction takes its id first (as any write does), and appends last.
  const slow = tp.platform.core.withTenant('acme', async (trx) => {
    await sql`SELECT pg_current_xact_id()`.execute(trx);
    xidTaken();
    await proceed;
    await emitIn(tp, trx, 1);
  });
  await hasXid;
  await emitNow(tp, 2);
  t.same(await api.after('acme', 0, 10, 'order.created'), [], 'a reader in stream order sees nothing beyond the horizon');
  goOn();
  await slow;
  // The horizon is the cluster's oldest running transaction: another database's (a parallel test's) may hold it a moment longer.
  const read = await until(async () => {
    const events = await api.after('acme', 0, 10, 'order.created');
    return events.length === 2 ? events : undefined;
  }, 'both events below the horizon');
  t.same(read.map((event) => (event.data as { n: number }).n), [1, 2], 'the slow transaction\'s event first');
  t.ok(read[0].seq > read[1].seq, 'though it was numbered after the other');
  t.same(await api.after('acme', read[0].position, 10, 'order.created').then((rest) => rest.map((event) => event.seq)), [read[1].seq], 'a reader goes on from a position');
  await until(async () => (await dispatchedOrders(client)).length === 2, 'both orders to be dispatched');
  t.same(await dispatchedOrders(client), [1, 2], 'the dispatcher follows the same order');
});

t.test('appends interleaved with held transactions: every event dispatched exactly once, in (transaction, number) order', async (t) => {
  const { tp } = await ordersFixture(t);
  const client = await rawClient(t, tp.databaseUrl);
  const held = [heldTransaction(tp, (trx) => emitIn(tp, trx, 0))];
  await held[0].started;
  held.push(heldTransaction(tp, (trx) => emitIn(tp, trx, 1)));
  await held[1].started;
  const fast: Promise<unknown>[] = [];
  for (let n = 2; n < 40; n += 1) fast.push(emitNow(tp, n));
  await Promise.all(fast);
  held[1].release();
  await held[1].done;
  await sleep(300);
  t.same(await dispatchedOrders(client), [], 'held back by the oldest running transaction');
  held[0].release();
  await held[0].done;
  await until(async () => (await dispatchedOrders(client)).length === 40, 'every order to be dispatched');
  const { rows } = await client.query(`SELECT (data->>'n')::int AS n FROM events WHERE tenant_id = 'acme' AND type = 'order.created' ORDER BY xid, seq`);
  t.same(await dispatchedOrders(client), rows.map((row) => row.n), 'dispatched in stream order');
  t.same([...await dispatchedOrders(client)].sort((a, b) => a - b), Array.from({ length: 40 }, (_, n) => n), 'each exactly once');
});

t.test('a connection killed in the middle of an append leaves no event and holds the stream back only while it lives', async (t) => {
  const { tp } = await ordersFixture(t);
  const client = await rawClient(t, tp.databaseUrl);
  const doomed = await rawClient(t, tp.databaseUrl);
  doomed.on('error', () => {});
  await doomed.query(`BEGIN; SET LOCAL ROLE platform_tenant; SET LOCAL app.tenant_id = 'acme'`);
  await doomed.query(`INSERT INTO events (tenant_id, id, type, source, time, data) VALUES ('acme', 'doomed', 'order.created', '/shop', now(), '{"n": 99}')`);
  await emitNow(tp, 1);
  await sleep(400);
  t.same(await dispatchedOrders(client), [], 'held back while the appending transaction lives');
  (doomed as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  await until(async () => (await dispatchedOrders(client)).length === 1, 'the committed order to be dispatched');
  t.same(await dispatchedOrders(client), [1]);
  const { rows } = await client.query(`SELECT count(*)::int AS n FROM events WHERE id = 'doomed'`);
  t.equal(rows[0].n, 0, 'the killed transaction\'s event never existed');
});

t.test('an event whose wake was lost (committed, then the process died) is dispatched by the sweep of the next process to start', async (t) => {
  // A platform without workers: the API and the database, nothing dispatches.
  const api = await startEventsPlatform(t);
  const { token } = await tenantWithAdmin(api, 'acme');
  await createWorkflow(api, token, 'record');
  await createTrigger(api, token, { name: 'orders', event_type: 'order.created', target_name: 'record', input_mapping: { n: '{{event.data.n}}' } });
  const client = await rawClient(t, api.databaseUrl);
  // Appended and committed behind the platform's back: nothing woke a dispatcher.
  await client.query(`BEGIN; SET LOCAL ROLE platform_tenant; SET LOCAL app.tenant_id = 'acme';
    INSERT INTO events (tenant_id, id, type, source, time, data) VALUES ('acme', 'orphan', 'order.created', '/shop', now(), '{"n": 7}'); COMMIT`);
  await client.query(`DELETE FROM graphile_worker._private_jobs`);
  const next = await startEventsPlatform(t, { databaseUrl: api.databaseUrl });
  await next.platform.start();
  await until(async () => (await dispatchedOrders(client)).length === 1, 'the start-up sweep to wake the dispatcher', 30_000);
  t.same(await dispatchedOrders(client), [7]);
});
