// Deadman triggers: matching events push the window back and never let it
// fire; silence fires deadman.fired and starts the workflow; recurring ones
// watch again; after_event_type delays watching; a deadline that passed while
// no worker ran fires before the late event is counted. The clock is driven by
// moving the timer job's run_at, not by sleeping.
import t from 'tap';
import type pg from 'pg';
import { tenantWithAdmin } from 'agent-platform/sdk/testing';
import {
  createTrigger, createWorkflow, dispatched, dispatchesOf, emit, eventsFixture, executionsOf, rawClient, startEventsPlatform, until,
} from './helpers.ts';

const keyOf = (name: string) => `events:deadman:acme:${name}`;

async function timer(client: pg.Client, name: string) {
  return (await client.query(`SELECT run_at, payload FROM graphile_worker._private_jobs WHERE key = $1`, [keyOf(name)])).rows[0] as
    { run_at: Date; payload: { deadline: string } } | undefined;
}

async function fastForward(client: pg.Client, name: string) {
  const { rowCount } = await client.query(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = $1`, [keyOf(name)]);
  if (rowCount !== 1) throw new Error(`no timer for ${name}`);
}

async function deadmanEvents(tp: { request: (o: { url: string; token: string }) => Promise<{ body: { items: { seq: number; data: Record<string, unknown> }[] } }> }, token: string) {
  return (await tp.request({ url: '/api/admin/triggers/events/recent?type=deadman.fired', token })).body.items;
}

t.test('events keep a deadman quiet; silence fires it, and a recurring one watches again', async (t) => {
  const { tp, token } = await eventsFixture(t);
  const client = await rawClient(t, tp.databaseUrl);
  await createTrigger(tp, token, {
    name: 'heartbeat', target_name: 'record', input_mapping: { missing: '{{event.data.watch_event_type}}', window: '{{event.data.within_seconds}}' },
    deadman_config: { watch_event_type: 'host.heartbeat', within_seconds: 60, watch_filter: { 'data.host': ['db-1'] } },
  });
  for (let i = 0; i < 3; i += 1) {
    const beat = await emit(tp, token, 'host.heartbeat', { host: 'db-1' });
    await dispatched(tp, token);
    const job = await timer(client, 'heartbeat');
    t.equal(job?.run_at.getTime(), new Date(beat.event.time as string).getTime() + 60_000, `heartbeat ${i + 1} pushes the window to its time + 60 s`);
  }
  const before = (await timer(client, 'heartbeat'))!.run_at.getTime();
  await emit(tp, token, 'host.heartbeat', { host: 'web-1' });
  await emit(tp, token, 'host.booted', { host: 'db-1' });
  await dispatched(tp, token);
  t.equal((await timer(client, 'heartbeat'))!.run_at.getTime(), before, 'events the watch filter or type excludes do not');
  t.same(await deadmanEvents(tp, token), [], 'no deadman.fired while heartbeats keep coming');
  t.same(await executionsOf(tp, token, 'record'), []);

  const deadline = (await timer(client, 'heartbeat'))!.payload.deadline;
  await fastForward(client, 'heartbeat');
  await until(async () => (await deadmanEvents(tp, token)).length === 1, 'deadman.fired');
  const [fired] = await deadmanEvents(tp, token);
  t.match(fired.data, { trigger: 'heartbeat', watch_event_type: 'host.heartbeat', within_seconds: 60, deadline, recurring: true });
  await until(async () => (await executionsOf(tp, token, 'record')).length === 1, 'the workflow');
  const [started] = await executionsOf(tp, token, 'record');
  t.same(started.origin, { type: 'deadman', id: 'heartbeat', acting_for: { kind: 'user', sub: 'acme-admin' } });
  t.match(await dispatchesOf(tp, token, 'heartbeat'), [{ origin: 'DEADMAN', status: 'STARTED' }]);

  const rearmed = await timer(client, 'heartbeat');
  t.ok(rearmed && rearmed.run_at.getTime() > Date.now() + 50_000, 'recurring: a new window is armed');
  const read = await tp.request({ url: '/api/admin/triggers/heartbeat', token });
  t.equal(read.body.active, true);
  t.equal(read.body.last_fired_at, deadline);
});

t.test('after_event_type: watching starts only once that event occurred; a one-shot deadman deactivates', async (t) => {
  const { tp, token } = await eventsFixture(t);
  const client = await rawClient(t, tp.databaseUrl);
  await createTrigger(tp, token, {
    name: 'export-stalled', target_name: 'record',
    deadman_config: { watch_event_type: 'export.progress', within_seconds: 120, after_event_type: 'export.started', recurring: false },
  });
  await emit(tp, token, 'export.progress', { pct: 10 });
  await dispatched(tp, token);
  t.equal(await timer(client, 'export-stalled'), undefined, 'progress before the start arms nothing');
  const started = await emit(tp, token, 'export.started', {});
  await dispatched(tp, token);
  t.equal((await timer(client, 'export-stalled'))?.run_at.getTime(), new Date(started.event.time as string).getTime() + 120_000, 'the start arms the window');
  const progress = await emit(tp, token, 'export.progress', { pct: 50 });
  await dispatched(tp, token);
  t.equal((await timer(client, 'export-stalled'))?.run_at.getTime(), new Date(progress.event.time as string).getTime() + 120_000, 'progress pushes it back');
  await fastForward(client, 'export-stalled');
  await until(async () => (await deadmanEvents(tp, token)).length === 1, 'deadman.fired');
  await until(async () => (await executionsOf(tp, token, 'record')).length === 1, 'the workflow');
  const read = await tp.request({ url: '/api/admin/triggers/export-stalled', token });
  t.equal(read.body.active, false, 'not recurring: it fired its once and is now inactive');
  t.equal(await timer(client, 'export-stalled'), undefined);
  await emit(tp, token, 'export.started', {});
  await dispatched(tp, token);
  t.equal(await timer(client, 'export-stalled'), undefined, 'and stays quiet');
});

t.test('a deadline that passed while no worker ran fires before the late event is counted, once', async (t) => {
  const api = await startEventsPlatform(t);
  const { token } = await tenantWithAdmin(api, 'acme');
  await createWorkflow(api, token, 'record');
  await createTrigger(api, token, { name: 'heartbeat', target_name: 'record', deadman_config: { watch_event_type: 'host.heartbeat', within_seconds: 60 } });
  const client = await rawClient(t, api.databaseUrl);
  // Workers were down for longer than the window: its deadline is in the past when the next heartbeat comes.
  const deadline = new Date(Date.now() - 5_000);
  await client.query(`UPDATE triggers SET deadman_deadline = $1 WHERE name = 'heartbeat'`, [deadline]);
  await client.query(`UPDATE graphile_worker._private_jobs SET run_at = $1, payload = $2 WHERE key = $3`,
    [deadline, JSON.stringify({ tenant_id: 'acme', trigger: 'heartbeat', deadline: deadline.toISOString() }), keyOf('heartbeat')]);
  const beat = await emit(api, token, 'host.heartbeat', {});

  const up = await startEventsPlatform(t, { databaseUrl: api.databaseUrl, env: { PLATFORM_MASTER_KEY: api.env.PLATFORM_MASTER_KEY } });
  await up.platform.start();
  await until(async () => (await deadmanEvents(up, token)).length === 1, 'deadman.fired');
  await dispatched(up, token);
  await until(async () => (await executionsOf(up, token, 'record')).length === 1, 'the workflow');
  const fired = await deadmanEvents(up, token);
  t.equal(fired.length, 1, 'fired once for the missed window');
  t.equal(fired[0].data.deadline, deadline.toISOString());
  t.ok(fired[0].seq > beat.seq, 'the dispatcher fired it when it met the late heartbeat');
  t.equal((await timer(client, 'heartbeat'))?.run_at.getTime(), new Date(beat.event.time as string).getTime() + 60_000, 'then the heartbeat opened the next window');
});
