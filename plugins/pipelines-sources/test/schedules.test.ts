// Source schedules: cron in an IANA zone armed as a timer job, fired into a
// sync run, paused, resumed, triggered, deleted; missed occurrences follow
// the schedule's missed-run policy. Time is moved by moving the timer job's
// run_at (what graphile-worker compares with the database clock), not by sleeping.
import t from 'tap';
import pg from 'pg';
import { nextOccurrence } from 'agent-platform/sdk';
import { until } from 'agent-platform/sdk/testing';
import { sourcesPlatform, userToken } from './helpers.ts';

async function rawClient(t: Parameters<typeof sourcesPlatform>[0], url: string) {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  t.teardown(() => client.end());
  return client;
}

async function withSchedulePlatform(t: Parameters<typeof sourcesPlatform>[0]) {
  // A run reading nothing real fails at once: no retry to wait for.
  const platform = await sourcesPlatform(t, { PIPELINES_SYNC_RETRY_LIMIT: '0' }, { workers: true });
  const sourceId = (await platform.asAcme('POST', '/api/v1/sources', { name: 'shop', pattern_id: 'postgres', source_config: { host: '127.0.0.1', database: 'x', user: 'y' } })).body.id as string;
  // An enabled stream, so that an occurrence starts a run (with none it is skipped: no-enabled-streams.test.ts).
  await platform.asAcme('POST', `/api/v1/sources/${sourceId}/streams`, { name: 'orders', namespace: 'public', schema: { type: 'object', properties: { id: { type: 'integer' } } } });
  const client = await rawClient(t, platform.tp.databaseUrl);
  const key = `schedule:pipelines-sources.source:acme:${sourceId}`;
  const timer = async () => (await client.query(`SELECT run_at, payload FROM graphile_worker._private_jobs WHERE key = $1`, [key])).rows[0] as
    { run_at: Date; payload: { scheduled_time: string } } | undefined;
  return { ...platform, sourceId, client, key, timer, base: `/api/v1/sources/${sourceId}/schedule` };
}

t.test('put, fire into a sync run, re-arm; pause, resume, trigger, delete; roles', async (t) => {
  const { tp, asAcme, asBeta, sourceId, client, key, timer, base } = await withSchedulePlatform(t);
  t.equal((await asAcme('GET', base)).body.code, 'SCHEDULE_NOT_FOUND');
  for (const [body, what] of [[{ cron: 'every day at noon' }, 'a malformed cron'], [{ cron: '0 9 * * *', timezone: 'Mars/Olympus' }, 'an unknown zone']] as const) {
    const bad = await asAcme('PUT', base, body);
    t.equal(bad.status, 400, what);
    t.equal(bad.body.code, 'SCHEDULE_INVALID');
  }
  const put = await asAcme('PUT', base, { cron: '30 2 * * *', timezone: 'Europe/Oslo', missed_run_policy: 'catch_up_once' });
  t.equal(put.status, 200);
  t.match(put.body, { cron: '30 2 * * *', timezone: 'Europe/Oslo', missed_run_policy: 'catch_up_once', paused: false });
  const first = new Date(put.body.next_run_at);
  t.equal(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Oslo', hour: '2-digit', minute: '2-digit' }).format(first), '02:30', 'armed for 02:30 Oslo time');
  t.equal((await timer())?.run_at.getTime(), first.getTime(), 'the timer job is armed for it');
  t.same((await asAcme('GET', '/api/v1/schedules')).body.items.map((s: { source_name: string }) => s.source_name), ['shop']);
  t.same((await asBeta('GET', '/api/v1/schedules')).body.items, [], 'another tenant lists none');
  t.equal((await asBeta('GET', base)).status, 404);

  await client.query(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = $1`, [key]);
  const fired = await until(async () => {
    const read = (await asAcme('GET', base)).body;
    return read.last_outcome ? read : undefined;
  }, 'the timer to fire', 60_000);
  t.equal(fired.last_outcome, 'started');
  t.equal(fired.last_run_at, first.toISOString());
  const second = nextOccurrence('30 2 * * *', 'Europe/Oslo', first);
  t.equal(fired.next_run_at, second.toISOString());
  t.equal((await timer())?.payload.scheduled_time, second.toISOString(), 'the next occurrence is armed');
  const history = (await asAcme('GET', `/api/v1/sources/${sourceId}/sync-history`)).body.items;
  t.match(history, [{ id: fired.last_sync_run_id, trigger: 'schedule' }]);
  await until(async () => (await asAcme('GET', `/api/v1/sources/${sourceId}/sync/status`)).body.run.is_terminal, 'the scheduled run to end', 60_000);

  const paused = await asAcme('POST', `${base}/pause`);
  t.match(paused.body, { paused: true, next_run_at: null });
  t.equal(await timer(), undefined, 'paused: no timer');
  // A leftover timer for the paused schedule does nothing.
  await tp.platform.core.jobs.enqueue('core.schedule_fire', { tenant_id: 'acme', kind: 'pipelines-sources.source', subject: sourceId, scheduled_time: second.toISOString() }, { jobKey: key });
  await until(async () => (await timer()) === undefined, 'the stale timer to run');
  t.equal((await asAcme('GET', `/api/v1/sources/${sourceId}/sync-history`)).body.items.length, 1, 'a paused schedule starts nothing');
  const resumed = await asAcme('POST', `${base}/resume`);
  t.equal(resumed.body.paused, false);
  t.equal((await timer())?.run_at.toISOString(), resumed.body.next_run_at, 'resumed: armed again');

  const triggered = await asAcme('POST', `${base}/trigger`);
  t.equal(triggered.status, 202);
  t.match(triggered.body, { trigger: 'schedule', status: 'queued' });

  const reader = await userToken(tp, 'reader', ['acme']);
  t.equal((await tp.request({ url: base, token: reader, tenant: 'acme' })).status, 200, 'members read');
  t.equal((await tp.request({ method: 'PUT', url: base, token: reader, tenant: 'acme', payload: { cron: '0 * * * *' } })).status, 403);
  t.equal((await tp.request({ method: 'POST', url: `${base}/trigger`, token: reader, tenant: 'acme' })).status, 403);

  t.equal((await asAcme('DELETE', base)).status, 204);
  t.equal(await timer(), undefined);
  t.equal((await asAcme('GET', base)).status, 404);
});

for (const policy of ['skip', 'catch_up_once'] as const) {
  t.test(`occurrences missed while the platform was down: missed_run_policy ${policy}`, async (t) => {
    const { asAcme, sourceId, client, key, timer, base } = await withSchedulePlatform(t);
    await asAcme('PUT', base, { cron: '0 0 * * *', missed_run_policy: policy, paused: true });
    // The timer was armed for a midnight three days ago and has only now come to run.
    const armed = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 - 3 * 86_400_000);
    await client.query(`UPDATE schedules SET paused = false, next_run_at = $1 WHERE kind = 'pipelines-sources.source'`, [armed]);
    await client.query(`SELECT graphile_worker.add_job('core.schedule_fire', $1::json, job_key := $2, run_at := $3)`,
      [JSON.stringify({ tenant_id: 'acme', kind: 'pipelines-sources.source', subject: sourceId, scheduled_time: armed.toISOString() }), key, armed]);
    const expectedNext = nextOccurrence('0 0 * * *', 'UTC', new Date());
    await until(async () => (await timer())?.payload.scheduled_time === expectedNext.toISOString(), 'the timer to run and re-arm', 60_000);
    const read = (await asAcme('GET', base)).body;
    const latest = new Date(expectedNext.getTime() - 86_400_000);
    const runs = (await asAcme('GET', `/api/v1/sources/${sourceId}/sync-history`)).body.items;
    if (policy === 'skip') {
      t.equal(read.last_outcome, `missed: 4 occurrence(s), the latest at ${latest.toISOString()} (missed_run_policy: skip)`);
      t.same(runs, [], 'nothing ran');
    } else {
      t.equal(read.last_outcome, 'started (3 missed occurrence(s) collapsed)');
      t.equal(read.last_run_at, latest.toISOString(), 'once, for the most recent occurrence');
      t.equal(runs.length, 1);
    }
  });
}
