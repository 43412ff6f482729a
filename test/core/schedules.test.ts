// core.schedules through a real platform: a fixture plugin defines a kind;
// put, pause, resume, trigger and remove on tenant transactions; a timer
// fires its occurrence once (a repeated timer of that occurrence fires
// nothing), tenants see only their own schedules, and a kind defined twice
// fails the boot. Time is moved by moving the timer job's run_at.
import t from 'tap';
import pg from 'pg';
import { nextOccurrence } from 'agent-platform/sdk';
import { startTestPlatform, until } from '../harness.ts';
import { PROBE_SCHEDULE } from '../fixtures/plugins/schedule-probe/plugin.ts';

const manifest = (options: Record<string, unknown> = {}) => ({
  plugins: [{ plugin: './plugins/tenancy' }, { plugin: './test/fixtures/plugins/schedule-probe', options }],
});
const KEY = `schedule:${PROBE_SCHEDULE}:acme:s1`;

t.test('put, fire once, re-arm; a repeated timer does nothing; pause, resume, trigger, remove; tenants apart', async (t) => {
  const tp = await startTestPlatform(t, { manifest: manifest(), listen: true });
  const { core } = tp.platform;
  for (const id of ['acme', 'beta']) t.equal((await tp.request({ method: 'POST', url: '/api/admin/tenants', token: tp.adminToken, payload: { id } })).status, 201);
  const client = new pg.Client({ connectionString: tp.databaseUrl });
  client.on('error', () => {});
  await client.connect();
  t.teardown(() => client.end());
  const timer = async (key = KEY) => (await client.query(`SELECT run_at, payload FROM graphile_worker._private_jobs WHERE key = $1`, [key])).rows[0] as
    { run_at: Date; payload: { scheduled_time: string } } | undefined;
  const fires = async () => (await client.query(`SELECT subject, scheduled_time, missed FROM schedule_probe_fires ORDER BY id`)).rows;
  const acme = <T>(work: Parameters<typeof core.withTenant<T>>[1]) => core.withTenant('acme', work);
  const beta = <T>(work: Parameters<typeof core.withTenant<T>>[1]) => core.withTenant('beta', work);

  await t.rejects(acme((trx) => core.schedules.put(trx, 'acme', { kind: PROBE_SCHEDULE, subject: 's1', cron: 'every day' })), { message: /cron|timezone/ });
  await t.rejects(acme((trx) => core.schedules.put(trx, 'acme', { kind: PROBE_SCHEDULE, subject: 's1', cron: '0 9 * * *', timezone: 'Mars/Olympus' })), { message: /cron|timezone/ });
  const put = await acme((trx) => core.schedules.put(trx, 'acme', { kind: PROBE_SCHEDULE, subject: 's1', cron: '30 2 * * *', timezone: 'europe/oslo', missedPolicy: 'catch_up_once', data: { n: 1 } }));
  t.match(put, { tenant_id: 'acme', kind: PROBE_SCHEDULE, subject: 's1', timezone: 'Europe/Oslo', missed_policy: 'catch_up_once', paused: false, data: { n: 1 } });
  const first = put.next_run_at!;
  t.equal(first.getTime(), nextOccurrence('30 2 * * *', 'Europe/Oslo', put.created_at).getTime(), 'armed for the next 02:30 in Oslo');
  t.equal((await timer())?.run_at.getTime(), first.getTime(), 'its timer job waits for it');

  t.equal(await beta((trx) => core.schedules.get(trx, PROBE_SCHEDULE, 's1')), undefined, 'another tenant does not see it');
  t.same(await beta((trx) => core.schedules.list(trx, PROBE_SCHEDULE)), []);
  t.equal(await beta((trx) => core.schedules.pause(trx, 'beta', PROBE_SCHEDULE, 's1')), undefined, 'nor pause it');
  t.equal(await beta((trx) => core.schedules.remove(trx, 'beta', PROBE_SCHEDULE, 's1')), false, 'nor delete it');
  t.equal(await beta((trx) => core.schedules.trigger(trx, 'beta', PROBE_SCHEDULE, 's1')), undefined, 'nor fire it');
  await t.rejects(beta((trx) => core.schedules.put(trx, 'acme', { kind: PROBE_SCHEDULE, subject: 's2', cron: '0 * * * *' })), 'nor write a row of another tenant');
  t.same((await acme((trx) => core.schedules.list(trx, PROBE_SCHEDULE))).map((s) => s.subject), ['s1']);

  await client.query(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = $1`, [KEY]);
  await until(async () => (await fires()).length === 1, 'the timer to fire', 60_000);
  const second = nextOccurrence('30 2 * * *', 'Europe/Oslo', first);
  await until(async () => (await timer())?.payload.scheduled_time === second.toISOString(), 'the next occurrence to be armed');
  const fired = (await acme((trx) => core.schedules.get(trx, PROBE_SCHEDULE, 's1')))!;
  t.match(fired, { last_run_at: first, next_run_at: second, last_outcome: 'started', last_run_id: /^\d+$/ });
  t.match(await fires(), [{ subject: 's1', scheduled_time: first, missed: 0 }]);

  // The same occurrence's timer again (a retry after its fire committed): nothing fires.
  await core.jobs.enqueue('core.schedule_fire', { tenant_id: 'acme', kind: PROBE_SCHEDULE, subject: 's1', scheduled_time: first.toISOString() }, { jobKey: 'retry' });
  await until(async () => (await timer('retry')) === undefined, 'the repeated timer to run');
  t.equal((await fires()).length, 1, 'one fire per occurrence');

  const paused = (await acme((trx) => core.schedules.pause(trx, 'acme', PROBE_SCHEDULE, 's1')))!;
  t.match(paused, { paused: true, next_run_at: null });
  t.equal(await timer(), undefined, 'paused: no timer');
  const resumed = (await acme((trx) => core.schedules.resume(trx, 'acme', PROBE_SCHEDULE, 's1')))!;
  t.equal(resumed.paused, false);
  t.equal((await timer())?.run_at.getTime(), resumed.next_run_at!.getTime(), 'resumed: armed from now');

  t.match(await acme((trx) => core.schedules.trigger(trx, 'acme', PROBE_SCHEDULE, 's1')), { runId: /^\d+$/ }, 'trigger fires now');
  t.equal((await fires()).length, 2);
  t.equal((await acme((trx) => core.schedules.get(trx, PROBE_SCHEDULE, 's1')))!.next_run_at!.getTime(), resumed.next_run_at!.getTime(), 'its timing unchanged');

  t.equal(await acme((trx) => core.schedules.remove(trx, 'acme', PROBE_SCHEDULE, 's1')), true);
  t.equal(await timer(), undefined, 'removed: no timer');
  t.equal(await acme((trx) => core.schedules.get(trx, PROBE_SCHEDULE, 's1')), undefined);
});

t.test('a kind defined twice fails the boot', async (t) => {
  await t.rejects(startTestPlatform(t, { manifest: manifest({ defineTwice: true }) }), /schedule kind schedule-probe\.probe is already defined/);
});
