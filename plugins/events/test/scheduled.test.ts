// Scheduled triggers end to end: a timer fires its occurrence (schedule.fired
// with scheduled_time, the workflow) and arms the next one; missed fire times
// follow the trigger's policy. The clock is driven by moving a timer job's
// run_at (what graphile-worker compares with the database clock), not by sleeping.
import t from 'tap';
import type pg from 'pg';
import { nextOccurrence, nextOccurrences } from '../triggers/schedule.ts';
import { tenantWithAdmin } from 'agent-platform/sdk/testing';
import {
  createTrigger, createWorkflow, dispatchesOf, eventsFixture, execution, executionsOf, rawClient, startEventsPlatform, until,
} from './helpers.ts';

const KEY = 'schedule:events.trigger:acme:nightly';

async function timer(client: pg.Client, key = KEY) {
  return (await client.query(`SELECT run_at, payload FROM graphile_worker._private_jobs WHERE key = $1`, [key])).rows[0] as
    { run_at: Date; payload: { scheduled_time: string } } | undefined;
}

/** Lets a timer's time come now. */
async function fastForward(client: pg.Client, key = KEY) {
  const { rowCount } = await client.query(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = $1`, [key]);
  if (rowCount !== 1) throw new Error(`no timer ${key}`);
}

async function firedEvents(tp: { request: Function }, token: string) {
  const recent = await (tp as { request: (o: unknown) => Promise<{ body: { items: { data: Record<string, unknown> }[] } }> })
    .request({ url: '/api/admin/triggers/events/recent?type=schedule.fired', token });
  return recent.body.items;
}

t.test('a scheduled trigger fires its occurrence in its time zone and arms the next', async (t) => {
  const { tp, token } = await eventsFixture(t);
  const client = await rawClient(t, tp.databaseUrl);
  const created = await createTrigger(tp, token, {
    name: 'nightly', target_name: 'record',
    schedule_config: { cron: '30 2 * * *', timezone: 'Europe/Oslo', note: 'nightly report' },
    input_mapping: { at: '{{event.data.scheduled_time}}', trigger: '{{event.data.trigger}}' },
  });
  const first = new Date(created.next_fire_at);
  t.equal(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Oslo', hour: '2-digit', minute: '2-digit' }).format(first), '02:30', 'armed for 02:30 Oslo time');

  await fastForward(client);
  await until(async () => (await firedEvents(tp, token)).length === 1, 'schedule.fired');
  const [fired] = await firedEvents(tp, token);
  t.match(fired, { type: 'schedule.fired', source: '/triggers', data: {
    trigger: 'nightly', scheduled_time: first.toISOString(), cron: '30 2 * * *', timezone: 'Europe/Oslo', note: 'nightly report', missed_count: 0, late: false,
  } });
  await until(async () => (await executionsOf(tp, token, 'record')).length === 1, 'the workflow');
  const [started] = await executionsOf(tp, token, 'record');
  t.same(started.origin, { type: 'schedule', id: 'nightly', acting_for: { kind: 'user', sub: 'acme-admin' } });
  t.same((await execution(tp, token, started.execution_id)).context.inputs, { at: first.toISOString(), trigger: 'nightly' });

  const second = nextOccurrence('30 2 * * *', 'Europe/Oslo', first);
  const job = await timer(client);
  t.equal(job?.run_at.getTime(), second.getTime(), 'the next occurrence is armed');
  t.equal(job?.payload.scheduled_time, second.toISOString());
  const read = await tp.request({ url: '/api/admin/triggers/nightly', token });
  t.equal(read.body.next_fire_at, second.toISOString());
  t.equal(read.body.last_fired_at, first.toISOString());
  t.match(await dispatchesOf(tp, token, 'nightly'), [{ origin: 'SCHEDULE', status: 'STARTED' }]);
});

t.test('an every-minute schedule in a +05:45 zone is armed for the next minute boundary and fires it', async (t) => {
  const { tp, token } = await eventsFixture(t);
  const client = await rawClient(t, tp.databaseUrl);
  const key = 'schedule:events.trigger:acme:minutely';
  const created = await createTrigger(tp, token, { name: 'minutely', target_name: 'record', schedule_config: { cron: '* * * * *', timezone: 'Asia/Kathmandu' } });
  const due = new Date(created.next_fire_at);
  t.equal(due.getTime() % 60_000, 0, 'a minute boundary, though the zone is 5 h 45 min off UTC');
  t.ok(due.getTime() > new Date(created.created_at).getTime() && due.getTime() - new Date(created.created_at).getTime() <= 60_000, 'the next one');
  t.equal((await timer(client, key))?.run_at.getTime(), due.getTime(), 'its timer waits for it');

  await fastForward(client, key);
  // The real minute may also come meanwhile: its fire is the same one (the timer's key is unique), the next minute's another.
  await until(async () => (await firedEvents(tp, token)).length > 0, 'schedule.fired');
  const first = (await firedEvents(tp, token)).find((event) => event.data.scheduled_time === due.toISOString());
  t.match(first?.data, { trigger: 'minutely', cron: '* * * * *', missed_count: 0, late: false }, 'that minute fired');
  await until(async () => (await executionsOf(tp, token, 'record')).length > 0, 'the workflow');
  const next = (await timer(client, key))!.run_at.getTime();
  t.ok(next > due.getTime() && next % 60_000 === 0, 'and a later minute is armed');
});

t.test('deactivating pauses, reactivating resumes; a stale timer never fires', async (t) => {
  const { tp, token } = await eventsFixture(t);
  const client = await rawClient(t, tp.databaseUrl);
  await createTrigger(tp, token, { name: 'nightly', target_name: 'record', schedule_config: { cron: '0 6 * * *', timezone: 'Asia/Tokyo' } });
  const stale = await timer(client);
  await tp.request({ method: 'PUT', url: '/api/admin/triggers/nightly', token, payload: { active: false } });
  t.equal(await timer(client), undefined);
  // A leftover timer (e.g. enqueued by an old process) for the paused trigger:
  await tp.platform.core.jobs.enqueue('core.schedule_fire', { tenant_id: 'acme', kind: 'events.trigger', subject: 'nightly', scheduled_time: stale!.payload.scheduled_time }, { jobKey: KEY });
  await until(async () => (await timer(client)) === undefined, 'the stale timer to run');
  t.same(await firedEvents(tp, token), [], 'an inactive trigger does not fire');
  await tp.request({ method: 'PUT', url: '/api/admin/triggers/nightly', token, payload: { active: true } });
  t.ok(await timer(client), 'reactivated: armed again');
  await fastForward(client);
  await until(async () => (await firedEvents(tp, token)).length === 1, 'schedule.fired after reactivation');
});

for (const policy of ['skip', 'catch_up_once'] as const) {
  t.test(`fire times missed while the platform was down: missed_fire_policy ${policy}`, async (t) => {
    const api = await startEventsPlatform(t);
    const { token } = await tenantWithAdmin(api, 'acme');
    await createWorkflow(api, token, 'record');
    await createTrigger(api, token, { name: 'nightly', target_name: 'record', schedule_config: { cron: '0 0 * * *', missed_fire_policy: policy } });
    const client = await rawClient(t, api.databaseUrl);
    // The platform was down for three days and more: its timer was armed for a midnight long past.
    const armed = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 - 3 * 86_400_000);
    await client.query(`UPDATE schedules SET next_run_at = $1 WHERE kind = 'events.trigger' AND subject = 'nightly'`, [armed]);
    await client.query(`UPDATE graphile_worker._private_jobs SET run_at = $1, payload = $2 WHERE key = $3`,
      [armed, JSON.stringify({ tenant_id: 'acme', kind: 'events.trigger', subject: 'nightly', scheduled_time: armed.toISOString() }), KEY]);

    const up = await startEventsPlatform(t, { databaseUrl: api.databaseUrl, env: { PLATFORM_MASTER_KEY: api.env.PLATFORM_MASTER_KEY } });
    await up.platform.start();
    const expectedNext = nextOccurrences('0 0 * * *', 'UTC', new Date(), 1)[0];
    await until(async () => (await timer(client))?.payload.scheduled_time === expectedNext.toISOString(), 'the timer to run and re-arm');
    const latest = new Date(expectedNext.getTime() - 86_400_000);
    const fired = await firedEvents(up, token);
    const records = await dispatchesOf(up, token, 'nightly');
    if (policy === 'skip') {
      t.same(fired, [], 'nothing fired');
      t.match(records, [{ origin: 'SCHEDULE', status: 'MISSED', error: `4 occurrence(s) missed, the latest at ${latest.toISOString()} (missed_fire_policy: skip)` }]);
      t.same(await executionsOf(up, token, 'record'), []);
    } else {
      t.equal(fired.length, 1, 'one fire for the whole gap');
      t.match(fired[0].data, { scheduled_time: latest.toISOString(), missed_count: 3, late: true }, 'for the most recent occurrence, counting the rest');
      await until(async () => (await executionsOf(up, token, 'record')).length === 1, 'one workflow');
      t.match(records, [{ origin: 'SCHEDULE', status: 'STARTED' }]);
    }
  });
}
