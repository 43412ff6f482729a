// Trigger and workflow templates are tenant-written: they are scanned in
// linear time ("{{" + 100,000 spaces would make a backtracking pattern take
// seconds per request), a string with templates longer
// than 64 KiB is refused when the definition is saved, and one stored before
// the limit is refused at run time instead of evaluated.
import t from 'tap';
import { createTrigger, dispatched, dispatchesOf, emit, eventsFixture, rawClient } from './helpers.ts';

const spaces = ' '.repeat(100_000);

t.test('a trigger or workflow with "{{" + 100,000 spaces is refused with 400 naming the limit', async (t) => {
  const { tp, token } = await eventsFixture(t);
  const trigger = await tp.request({
    method: 'POST', url: '/api/admin/triggers', token,
    payload: { name: 'spaces', event_type: 'order.created', target_name: 'record', input_mapping: { x: `{{${spaces}` } },
  });
  t.equal(trigger.status, 400);
  t.same(trigger.body.fields, ['input_mapping']);
  t.match(trigger.body.message, /a string with templates may be at most 65536 characters \(this one has 100002\)/);

  const workflow = await tp.request({
    method: 'POST', url: '/api/admin/workflows', token,
    payload: { name: 'spaces', steps: [{ id: 'log', type: 'ACTION', handler: 'log', arguments: { message: `{{${spaces}event.id}}` } }] },
  });
  t.equal(workflow.status, 400);
  t.match(JSON.stringify(workflow.body), /a string with templates may be at most 65536 characters/);

  // Under the limit, a template with much white space is resolved.
  const padded = ' '.repeat(30_000);
  await createTrigger(tp, token, { name: 'padded', event_type: 'order.created', target_name: 'record', input_mapping: { id: `{{${padded}event.data.id${padded}}}` } });
  const dry = await tp.request({ method: 'POST', url: '/api/admin/triggers/padded/test', token, payload: { event: { type: 'order.created', data: { id: 7 } } } });
  t.equal(dry.status, 200);
  t.same(dry.body.input_mapping_result, { id: 7 });
});

t.test('a template over the limit stored before it existed is refused at run time: 422 on a dry run, a failed dispatch', async (t) => {
  const { tp, token } = await eventsFixture(t);
  await createTrigger(tp, token, { name: 'legacy', event_type: 'order.created', target_name: 'record', input_mapping: { id: '{{event.data.id}}' } });
  const db = await rawClient(t, tp.databaseUrl);
  await db.query(`UPDATE triggers SET input_mapping = $1 WHERE name = 'legacy'`, [JSON.stringify({ id: `{{${spaces}event.data.id}}` })]);

  const dry = await tp.request({ method: 'POST', url: '/api/admin/triggers/legacy/test', token, payload: { event: { type: 'order.created', data: { id: 7 } } } });
  t.equal(dry.status, 422);
  t.equal(dry.body.code, 'TEMPLATE_TOO_LONG');

  await emit(tp, token, 'order.created', { id: 8 });
  await dispatched(tp, token);
  const dispatches = await dispatchesOf(tp, token, 'legacy');
  t.equal(dispatches.length, 1, JSON.stringify(dispatches).slice(0, 300));
  const [dispatch] = dispatches;
  t.equal(dispatch.status, 'FAILED');
  t.match(dispatch.error, /TEMPLATE_TOO_LONG: trigger template refused: a string with templates is 100017 characters long; the limit is 65536/);
});
