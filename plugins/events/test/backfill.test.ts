// Backfill replays dispatched events through a reactive trigger: counts,
// since/limit, repeat runs (idempotent only with a dedup key), refusals.
import t from 'tap';
import { createTrigger, dispatched, dispatchesOf, emit, eventsFixture, executionsOf } from './helpers.ts';

async function backfill(tp: Awaited<ReturnType<typeof eventsFixture>>['tp'], token: string, name: string, payload?: unknown) {
  return tp.request({ method: 'POST', url: `/api/admin/triggers/${name}/backfill`, token, payload });
}

t.test('backfill replays past events through a new trigger; again only with a dedup key it starts nothing new', async (t) => {
  const { tp, token } = await eventsFixture(t);
  for (let i = 0; i < 5; i += 1) await emit(tp, token, 'order.created', { id: i, total: i * 100 });
  const middle = await emit(tp, token, 'order.created', { id: 5, total: 500 });
  await emit(tp, token, 'order.cancelled', { id: 1 });
  await dispatched(tp, token);

  await createTrigger(tp, token, { name: 'big', event_type: 'order.created', target_name: 'record', event_filter: { 'data.total': [{ numeric: ['>=', 200] }] } });
  const first = await backfill(tp, token, 'big', {});
  t.equal(first.status, 200);
  t.match(first.body, { scanned: 8, matched: 4, dispatched: 4, deduplicated: 0, errors: [] }, 'definition.created, 6 orders and a cancellation scanned');
  t.equal((await executionsOf(tp, token, 'record')).length, 4);
  const again = await backfill(tp, token, 'big');
  t.match(again.body, { matched: 4, dispatched: 4 }, 'without a dedup key a second run starts them again');
  t.equal((await executionsOf(tp, token, 'record')).length, 8);
  t.match(await dispatchesOf(tp, token, 'big'), [{ origin: 'BACKFILL', status: 'STARTED' }]);

  await createTrigger(tp, token, { name: 'once-per-order', event_type: 'order.*', target_name: 'record', dedup_key: 'order-{{event.data.id}}' });
  const keyed = await backfill(tp, token, 'once-per-order', { limit: 500 });
  t.match(keyed.body, { matched: 7, dispatched: 6, deduplicated: 1 }, 'order 1 created and cancelled: one key');
  const keyedAgain = await backfill(tp, token, 'once-per-order', { limit: 500 });
  t.match(keyedAgain.body, { matched: 7, dispatched: 0, deduplicated: 7 }, 'with a dedup key a second run is idempotent');

  const since = await backfill(tp, token, 'big', { since: middle.event.time, limit: 1 });
  t.match(since.body, { scanned: 1, matched: 1, dispatched: 1 }, 'since and limit bound the scan');
  t.equal(since.body.last_event_time, middle.event.time);
  const future = await backfill(tp, token, 'big', { since: new Date(Date.now() + 60_000).toISOString() });
  t.match(future.body, { scanned: 0, matched: 0, dispatched: 0, last_event_time: null });
});

t.test('backfill refuses what it cannot do and reports failed starts', async (t) => {
  const { tp, token } = await eventsFixture(t);
  await emit(tp, token, 'order.created', { id: 1 });
  await dispatched(tp, token);
  await createTrigger(tp, token, { name: 'broken', event_type: 'order.created', target_name: 'missing-workflow' });
  const failed = await backfill(tp, token, 'broken');
  t.equal(failed.status, 200);
  t.equal(failed.body.dispatched, 0);
  t.match(failed.body.errors, [{ seq: 2, error: /WORKFLOW_NOT_FOUND/ }]);

  t.equal((await backfill(tp, token, 'broken', { limit: 501 })).status, 400, 'limit is at most 500');
  t.equal((await backfill(tp, token, 'broken', { since: 'yesterday' })).status, 400);
  t.equal((await backfill(tp, token, 'nope')).status, 404);
  await createTrigger(tp, token, { name: 'paused', event_type: 'order.created', target_name: 'record', active: false });
  const paused = await backfill(tp, token, 'paused');
  t.equal(paused.status, 409);
  t.equal(paused.body.code, 'TRIGGER_INACTIVE');
  await createTrigger(tp, token, { name: 'nightly', target_name: 'record', schedule_config: { cron: '0 1 * * *' } });
  const scheduled = await backfill(tp, token, 'nightly');
  t.equal(scheduled.status, 400);
  t.equal(scheduled.body.code, 'TRIGGER_NOT_REACTIVE');
});
