// Trigger CRUD, validation (400 naming the field), listing, the dry run, and
// timers armed and disarmed with the trigger row.
import t from 'tap';
import { nextOccurrence } from '../triggers/schedule.ts';
import { createTrigger, eventsFixture, executionsOf, rawClient } from './helpers.ts';

const reactive = { name: 'big-orders', event_type: 'order.*', target_name: 'record' };

t.test('create, read, list, update and delete a reactive trigger', async (t) => {
  const { tp, token } = await eventsFixture(t);
  const created = await createTrigger(tp, token, {
    ...reactive, event_filter: { 'data.total': [{ numeric: ['>=', 100] }] }, input_mapping: { order: '{{event.data.id}}' },
  });
  t.match(created, {
    name: 'big-orders', kind: 'reactive', event_type: 'order.*', target_type: 'workflow', target_name: 'record',
    active: true, dedup_key: null, dedup_window_seconds: 300, schedule_config: null, deadman_config: null, next_fire_at: null,
  });
  const duplicate = await tp.request({ method: 'POST', url: '/api/admin/triggers', token, payload: reactive });
  t.equal(duplicate.status, 409);
  t.equal(duplicate.body.code, 'TRIGGER_EXISTS');

  await createTrigger(tp, token, { name: 'all-events', event_type: '*', target_name: 'record', active: false });
  await createTrigger(tp, token, { name: 'invoices', event_type: 'invoice.paid', target_name: 'record' });
  const all = await tp.request({ url: '/api/admin/triggers', token });
  t.same(all.body.items.map((i: { name: string }) => i.name), ['all-events', 'big-orders', 'invoices']);
  t.match(all.body, { total: 3, skip: 0, limit: 50 });
  const active = await tp.request({ url: '/api/admin/triggers?active_only=true', token });
  t.same(active.body.items.map((i: { name: string }) => i.name), ['big-orders', 'invoices']);
  const forType = await tp.request({ url: '/api/admin/triggers?event_type=order.created', token });
  t.same(forType.body.items.map((i: { name: string }) => i.name), ['all-events', 'big-orders'], 'event_type finds the patterns that match it');
  const paged = await tp.request({ url: '/api/admin/triggers?skip=1&limit=1', token });
  t.match(paged.body, { total: 3, skip: 1, limit: 1, items: [{ name: 'big-orders' }] });

  const read = await tp.request({ url: '/api/admin/triggers/big-orders', token });
  t.equal(read.status, 200);
  t.same(read.body.event_filter, { 'data.total': [{ numeric: ['>=', 100] }] });
  const missing = await tp.request({ url: '/api/admin/triggers/nope', token });
  t.equal(missing.status, 404);
  t.equal(missing.body.code, 'TRIGGER_NOT_FOUND');

  const updated = await tp.request({ method: 'PUT', url: '/api/admin/triggers/big-orders', token, payload: { active: false, event_filter: null } });
  t.equal(updated.status, 200);
  t.match(updated.body, { active: false, event_filter: null, input_mapping: { order: '{{event.data.id}}' } }, 'fields not given are kept');
  const rename = await tp.request({ method: 'PUT', url: '/api/admin/triggers/big-orders', token, payload: { name: 'other' } });
  t.equal(rename.status, 400);
  t.same(rename.body.fields, ['name']);
  t.equal((await tp.request({ method: 'DELETE', url: '/api/admin/triggers/big-orders', token })).status, 204);
  t.equal((await tp.request({ method: 'DELETE', url: '/api/admin/triggers/big-orders', token })).status, 404);
});

t.test('invalid triggers are refused with a 400 that names the field', async (t) => {
  const { tp, token } = await eventsFixture(t);
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['uppercase name', { ...reactive, name: 'Big_Orders' }, ['name']],
    ['missing event_type', { name: 'x', target_name: 'record' }, ['event_type']],
    ['bad type pattern', { ...reactive, event_type: 'order*.created' }, ['event_type']],
    ['filter values not an array', { ...reactive, event_filter: { 'data.total': 100 } }, ['event_filter']],
    ['unknown filter operator', { ...reactive, event_filter: { 'data.total': [{ between: [1, 2] }] } }, ['event_filter']],
    ['numeric with =', { ...reactive, event_filter: { 'data.total': [{ numeric: ['=', 5] }] } }, ['event_filter']],
    ['numeric with three terms', { ...reactive, event_filter: { 'data.total': [{ numeric: ['>', 1, '<'] }] } }, ['event_filter']],
    ['prefix not a string', { ...reactive, event_filter: { source: [{ prefix: 5 }] } }, ['event_filter']],
    ['empty condition list', { ...reactive, event_filter: { source: [] } }, ['event_filter']],
    ['template outside event', { ...reactive, input_mapping: { a: '{{inputs.x}}' } }, ['input_mapping']],
    ['template on an unknown event field', { ...reactive, input_mapping: { a: '{{event.subject}}' } }, ['input_mapping']],
    ['unbalanced template', { ...reactive, input_mapping: { a: 'id {{event.data.id' } }, ['input_mapping']],
    ['bad dedup template', { ...reactive, dedup_key: '{{event.data.}}' }, ['dedup_key']],
    ['dedup window 0', { ...reactive, dedup_window_seconds: 0 }, ['dedup_window_seconds']],
    ['cron with a bad minute', { name: 'x', target_name: 'record', schedule_config: { cron: '61 * * * *' } }, ['schedule_config.cron']],
    ['cron with six fields', { name: 'x', target_name: 'record', schedule_config: { cron: '0 0 * * * *' } }, ['schedule_config.cron']],
    ['cron with four fields', { name: 'x', target_name: 'record', schedule_config: { cron: '0 * * *' } }, ['schedule_config.cron']],
    ['cron that never fires', { name: 'x', target_name: 'record', schedule_config: { cron: '0 0 30 2 *' } }, ['schedule_config.cron']],
    ['unknown time zone', { name: 'x', target_name: 'record', schedule_config: { cron: '0 9 * * *', timezone: 'Mars/Olympus' } }, ['schedule_config.timezone']],
    ['offset instead of a zone', { name: 'x', target_name: 'record', schedule_config: { cron: '0 9 * * *', timezone: '+02:00' } }, ['schedule_config.timezone']],
    ['bad missed-fire policy', { name: 'x', target_name: 'record', schedule_config: { cron: '0 9 * * *', missed_fire_policy: 'all' } }, ['schedule_config.missed_fire_policy']],
    ['schedule and deadman', {
      name: 'x', target_name: 'record', schedule_config: { cron: '0 9 * * *' }, deadman_config: { watch_event_type: 'a.b', within_seconds: 60 },
    }, ['schedule_config', 'deadman_config']],
    ['deadman window under 60 s', { name: 'x', target_name: 'record', deadman_config: { watch_event_type: 'a.b', within_seconds: 59 } }, ['deadman_config.within_seconds']],
    ['deadman without a watched type', { name: 'x', target_name: 'record', deadman_config: { within_seconds: 60 } }, ['deadman_config.watch_event_type']],
    ['deadman with a bad watch filter', {
      name: 'x', target_name: 'record', deadman_config: { watch_event_type: 'a.b', within_seconds: 60, watch_filter: { 'data.x': [{ exists: 'yes' }] } },
    }, ['deadman_config.watch_filter']],
    ['event_filter on a scheduled trigger', {
      name: 'x', target_name: 'record', schedule_config: { cron: '0 9 * * *' }, event_filter: { 'data.a': [1] },
    }, ['event_filter']],
    ['scheduled trigger on another event type', { name: 'x', target_name: 'record', event_type: 'a.b', schedule_config: { cron: '0 9 * * *' } }, ['event_type']],
    ['target_type other than workflow', { ...reactive, target_type: 'agent' }, ['target_type']],
  ];
  for (const [what, payload, fields] of cases) {
    const response = await tp.request({ method: 'POST', url: '/api/admin/triggers', token, payload });
    t.equal(response.status, 400, `${what}: 400`);
    t.same(response.body.fields, fields, `${what}: names ${fields.join(', ')} (${response.body.message})`);
  }
  const listed = await tp.request({ url: '/api/admin/triggers', token });
  t.equal(listed.body.total, 0, 'none was created');
  const update = await tp.request({ method: 'POST', url: '/api/admin/triggers', token, payload: reactive });
  t.equal(update.status, 201);
  const badUpdate = await tp.request({ method: 'PUT', url: '/api/admin/triggers/big-orders', token, payload: { event_filter: { a: [{ numeric: ['>'] }] } } });
  t.equal(badUpdate.status, 400);
  t.same(badUpdate.body.fields, ['event_filter'], 'updates are validated the same way');
});

t.test('the dry run explains the match per filter key and maps inputs, starting nothing', async (t) => {
  const { tp, token } = await eventsFixture(t);
  await createTrigger(tp, token, {
    ...reactive,
    event_filter: { 'data.total': [{ numeric: ['>=', 100, '<', 1000] }], 'data.country': ['NO', 'SE'], 'data.coupon': [{ exists: false }] },
    input_mapping: { order_id: '{{event.data.id}}', total: '{{event.data.total}}', label: 'order {{event.data.id}} from {{event.source}}', missing: '{{event.data.nope}}', fixed: 'as is', nested: { type: '{{event.type}}' } },
    dedup_key: 'order-{{event.data.id}}',
  });
  const url = '/api/admin/triggers/big-orders/test';
  const hit = await tp.request({ method: 'POST', url, token, payload: { event: { type: 'order.created', data: { id: 7, total: 250, country: 'SE' } } } });
  t.equal(hit.status, 200);
  t.equal(hit.body.matched, true);
  t.equal(hit.body.type_matched, true);
  t.same(hit.body.filter_result, {
    'data.total': { matched: true, value: 250, reason: 'matched {"numeric":[">=",100,"<",1000]}' },
    'data.country': { matched: true, value: 'SE', reason: 'matched "SE"' },
    'data.coupon': { matched: true, reason: 'matched {"exists":false}' },
  });
  t.same(hit.body.input_mapping_result, {
    order_id: 7, total: 250, label: 'order 7 from /api/admin/triggers/test', missing: null, fixed: 'as is', nested: { type: 'order.created' },
  }, 'whole templates keep JSON types, unresolved paths give null, plain strings pass through');
  t.equal(hit.body.dedup_key_result, 'order-7');

  const miss = await tp.request({ method: 'POST', url, token, payload: { event: { type: 'order.created', data: { total: 50, coupon: 'X' } } } });
  t.equal(miss.body.matched, false);
  t.same(miss.body.filter_result, {
    'data.total': { matched: false, value: 50, reason: 'no condition matched 50' },
    'data.country': { matched: false, reason: 'path is missing' },
    'data.coupon': { matched: false, value: 'X', reason: 'no condition matched "X"' },
  });
  const otherType = await tp.request({ method: 'POST', url, token, payload: { event: { type: 'invoice.paid', data: { total: 250, country: 'NO' } } } });
  t.equal(otherType.body.matched, false);
  t.equal(otherType.body.type_matched, false);

  t.same(await executionsOf(tp, token, 'record'), [], 'the dry run started nothing');
  const recent = await tp.request({ url: '/api/admin/triggers/events/recent', token });
  t.same(recent.body.items.map((e: { type: string }) => e.type), ['definition.created'], 'and emitted nothing');
  t.equal((await tp.request({ method: 'POST', url: '/api/admin/triggers/nope/test', token, payload: { event: { type: 'a' } } })).status, 404);
});

t.test('scheduled and deadman triggers arm, move and drop their timers with the row', async (t) => {
  const { tp, token } = await eventsFixture(t);
  const client = await rawClient(t, tp.databaseUrl);
  const timer = async (key: string) => (await client.query(
    `SELECT j.run_at, j.payload, q.queue_name FROM graphile_worker._private_jobs j
     LEFT JOIN graphile_worker._private_job_queues q ON q.id = j.job_queue_id WHERE j.key = $1`, [key])).rows[0];
  const scheduleKey = 'schedule:events.trigger:acme:nightly';

  const before = new Date();
  const created = await createTrigger(tp, token, {
    name: 'nightly', target_name: 'record', schedule_config: { cron: '30 2 * * *', timezone: 'europe/oslo', note: 'report' },
  });
  t.match(created, { kind: 'scheduled', event_type: 'schedule.fired', schedule_config: { cron: '30 2 * * *', timezone: 'Europe/Oslo', missed_fire_policy: 'skip' } });
  const expected = nextOccurrence('30 2 * * *', 'Europe/Oslo', before);
  t.equal(new Date(created.next_fire_at).getTime(), expected.getTime(), 'armed for the next 02:30 in Oslo');
  let job = await timer(scheduleKey);
  t.equal(job.run_at.getTime(), expected.getTime());
  t.same(job.payload, { tenant_id: 'acme', kind: 'events.trigger', subject: 'nightly', scheduled_time: expected.toISOString() });

  const paused = await tp.request({ method: 'PUT', url: '/api/admin/triggers/nightly', token, payload: { active: false } });
  t.equal(paused.body.next_fire_at, null);
  t.equal(await timer(scheduleKey), undefined, 'deactivating removes the timer');
  await tp.request({ method: 'PUT', url: '/api/admin/triggers/nightly', token, payload: { active: true } });
  t.ok(await timer(scheduleKey), 'reactivating arms it again');
  const moved = await tp.request({ method: 'PUT', url: '/api/admin/triggers/nightly', token, payload: { schedule_config: { cron: '0 9 * * 1', timezone: 'America/New_York' } } });
  job = await timer(scheduleKey);
  const nextMonday = nextOccurrence('0 9 * * 1', 'America/New_York', new Date());
  t.equal(job.run_at.getTime(), nextMonday.getTime(), 'a new cron or zone reschedules');
  t.equal(new Date(moved.body.next_fire_at).getTime(), nextMonday.getTime());
  await tp.request({ method: 'DELETE', url: '/api/admin/triggers/nightly', token });
  t.equal(await timer(scheduleKey), undefined, 'deleting removes it');

  const deadman = await createTrigger(tp, token, {
    name: 'heartbeat', target_name: 'record', deadman_config: { watch_event_type: 'host.heartbeat', within_seconds: 600 },
  });
  t.match(deadman, { kind: 'deadman', event_type: 'deadman.fired', deadman_config: { recurring: true, after_event_type: null } });
  job = await timer('events:deadman:acme:heartbeat');
  t.equal(job.queue_name, 'events:acme', 'in the tenant dispatcher queue');
  t.equal(job.run_at.getTime(), new Date(deadman.deadman_deadline).getTime());
  t.ok(Math.abs(job.run_at.getTime() - (Date.now() + 600_000)) < 10_000, 'the window ends within_seconds from now');
  const renamedTarget = await tp.request({ method: 'PUT', url: '/api/admin/triggers/heartbeat', token, payload: { target_name: 'other' } });
  t.equal(renamedTarget.body.deadman_deadline, deadman.deadman_deadline, 'an edit that is not about timing keeps the window');
  await tp.request({ method: 'PUT', url: '/api/admin/triggers/heartbeat', token, payload: { deadman_config: null, event_type: 'host.down' } });
  t.equal(await timer('events:deadman:acme:heartbeat'), undefined, 'turned reactive: the deadman timer is gone');

  const after = await createTrigger(tp, token, {
    name: 'after-start', target_name: 'record', deadman_config: { watch_event_type: 'job.progress', within_seconds: 60, after_event_type: 'job.started' },
  });
  t.equal(after.deadman_deadline, null, 'with after_event_type nothing is armed until that event');
  t.equal(await timer('events:deadman:acme:after-start'), undefined);
});
