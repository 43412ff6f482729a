// A workflow a trigger starts acts for the trigger's person (its creator or
// last editor): its ACTION steps call functions with that person's roles in
// the tenant at each call, never as a service holding every role. An admin
// demoted after creating a trigger can no longer emit events through it.
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { emit, eventsFixture, execution, executionsOf } from './helpers.ts';

t.test('a trigger\'s workflows call functions with its creator\'s current roles', async (t) => {
  const { tp, token } = await eventsFixture(t, { workflow: false });
  const user = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub: 'tess', display_name: 'tess', organizations: ['acme'], roles: ['admin'] } });
  t.equal(user.status, 201);
  const tess = (await tp.request({ method: 'POST', url: '/api/admin/users/tess/tokens', token: tp.adminToken })).body.access_token as string;
  const workflow = await tp.request({ method: 'POST', url: '/api/admin/workflows', token: tess, payload: {
    name: 'relay', steps: [{ id: 'out', type: 'ACTION', handler: 'emit_event', arguments: { type: 'relay.done' } }],
  } });
  t.equal(workflow.status, 201, JSON.stringify(workflow.body));
  const trigger = await tp.request({ method: 'POST', url: '/api/admin/triggers', token: tess, payload: { name: 'on-ping', event_type: 'ping.sent', target_name: 'relay' } });
  t.equal(trigger.status, 201, JSON.stringify(trigger.body));

  const relayed = async () => {
    const recent = await tp.request({ url: '/api/admin/triggers/events/recent?limit=500', token });
    return (recent.body.items as { type: string }[]).filter((e) => e.type === 'relay.done').length;
  };
  const settled = (count: number) => until(async () => {
    const items = await executionsOf(tp, token, 'relay');
    return items.length === count && items.every((e) => e.status === 'completed' || e.status === 'failed') ? items : undefined;
  }, 'the executions', 30_000);

  await emit(tp, token, 'ping.sent');
  const [first] = await settled(1);
  t.equal(first.status, 'completed');
  t.same((first.origin as Record<string, unknown>).acting_for, { kind: 'user', sub: 'tess' }, 'the execution acts for the trigger\'s creator');
  t.equal(await relayed(), 1);

  const demoted = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub: 'tess', display_name: 'tess', organizations: ['acme'], roles: ['member'] } });
  t.equal(demoted.status, 200);
  await emit(tp, token, 'ping.sent');
  const [second] = await settled(2);
  t.equal(second.status, 'failed', 'the step is refused');
  t.match((await execution(tp, token, second.execution_id)).error, /Calling emit_event needs the role "admin" in tenant acme/);
  t.equal(await relayed(), 1, 'nothing more was emitted');

  // Another admin saving the trigger makes its workflows act for them.
  const edited = await tp.request({ method: 'PUT', url: '/api/admin/triggers/on-ping', token, payload: { event_type: 'ping.sent' } });
  t.equal(edited.status, 200, JSON.stringify(edited.body));
  await emit(tp, token, 'ping.sent');
  const [third] = await settled(3);
  t.equal(third.status, 'completed');
  t.same((third.origin as Record<string, unknown>).acting_for, { kind: 'user', sub: 'acme-admin' });
  t.equal(await relayed(), 2);
});
