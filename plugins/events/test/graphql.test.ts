// GraphQL: events (newest first, type pattern, since, Relay paging), triggers
// with enums in UPPER_CASE and camelCase fields, one trigger with its dispatches.
import t from 'tap';
import { createTrigger, dispatched, emit, eventsFixture } from './helpers.ts';

t.test('events, triggers and a trigger with its dispatches', async (t) => {
  const { tp, token } = await eventsFixture(t, { workflow: true });
  await createTrigger(tp, token, { name: 'orders', event_type: 'order.*', target_name: 'record', dedup_key: '{{event.data.id}}' });
  await createTrigger(tp, token, { name: 'nightly', target_name: 'record', schedule_config: { cron: '0 3 * * *', timezone: 'Europe/Oslo', missed_fire_policy: 'catch_up_once' } });
  const first = await emit(tp, token, 'order.created', { id: 1 });
  await emit(tp, token, 'order.created', { id: 1 });
  await emit(tp, token, 'invoice.sent', { id: 9 });
  await dispatched(tp, token);
  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await tp.request({ method: 'POST', url: '/graphql', token, payload: { query, variables } });
    t.equal(response.status, 200);
    return response.body;
  };

  const page = await gql(`query($after: String) { events(type: "order.*", first: 1, after: $after) {
    edges { cursor node { id seq type source specVersion tenantId dataContentType data dispatched time } }
    pageInfo { hasNextPage endCursor } } }`);
  t.equal(page.data.events.edges.length, 1);
  t.match(page.data.events.edges[0].node, { type: 'order.created', specVersion: '1.0', tenantId: 'acme', dataContentType: 'application/json', data: { id: 1 }, dispatched: true });
  t.equal(page.data.events.pageInfo.hasNextPage, true);
  const next = await gql(`query($after: String) { events(type: "order.*", first: 5, after: $after) { edges { node { id } } pageInfo { hasNextPage } } }`,
    { after: page.data.events.pageInfo.endCursor });
  t.same(next.data.events.edges.map((e: { node: { id: string } }) => e.node.id), [first.event.id], 'the next page holds the older one');
  t.equal(next.data.events.pageInfo.hasNextPage, false);
  const since = await gql(`{ events(since: "${new Date(Date.now() + 60_000).toISOString()}") { edges { node { id } } } }`);
  t.same(since.data.events.edges, [], 'since bounds the time');

  const list = await gql(`{ triggers(first: 10) { edges { node { name kind eventType active dedupKey dedupWindowSeconds nextFireAt
    scheduleConfig { cron timezone missedFirePolicy } recentDispatches(limit: 5) { origin status dedupKey eventId } } } } }`);
  const [nightly, orders] = list.data.triggers.edges.map((e: { node: unknown }) => e.node);
  t.match(nightly, { name: 'nightly', kind: 'SCHEDULED', eventType: 'schedule.fired', scheduleConfig: { cron: '0 3 * * *', timezone: 'Europe/Oslo', missedFirePolicy: 'CATCH_UP_ONCE' }, recentDispatches: [] });
  t.ok(nightly.nextFireAt);
  t.match(orders, { name: 'orders', kind: 'REACTIVE', eventType: 'order.*', active: true, dedupKey: '{{event.data.id}}', dedupWindowSeconds: 300 });
  t.same(orders.recentDispatches.map((d: { status: string }) => d.status), ['DEDUPLICATED', 'STARTED']);
  t.equal(orders.recentDispatches[1].eventId, first.event.id);

  const one = await gql(`{ trigger(name: "orders") { name dispatches(first: 1) { edges { node { status origin executionId } } pageInfo { hasNextPage } } } }`);
  t.match(one.data.trigger.dispatches, { edges: [{ node: { status: 'DEDUPLICATED', origin: 'EVENT', executionId: null } }], pageInfo: { hasNextPage: true } });
  t.same((await gql(`{ trigger(name: "nope") { name } }`)).data.trigger, null);
  const filtered = await gql(`{ triggers(activeOnly: true, eventType: "order.created") { edges { node { name } } } }`);
  t.same(filtered.data.triggers.edges.map((e: { node: { name: string } }) => e.node.name), ['orders']);
  const anonymous = await tp.request({ method: 'POST', url: '/graphql', payload: { query: '{ triggers { edges { node { name } } } }' } });
  t.equal(anonymous.body.errors[0].extensions.code, 'UNAUTHENTICATED');
});
