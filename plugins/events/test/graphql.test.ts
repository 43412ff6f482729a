// GraphQL: events (newest first, type pattern, time bound, Relay paging both
// ways with totalCount), triggers with enums in UPPER_CASE and camelCase
// fields, one trigger with its dispatches, and the objects they refer to.
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

  const page = await gql(`query($after: String) { events(filter: {type: "order.*"}, first: 1, after: $after) {
    edges { cursor node { id seq type source specVersion tenantId tenant { id displayName } dataContentType data dispatched time } }
    pageInfo { hasNextPage endCursor } totalCount } }`);
  t.notOk(page.errors, JSON.stringify(page.errors));
  t.equal(page.data.events.edges.length, 1);
  t.match(page.data.events.edges[0].node, {
    type: 'order.created', specVersion: '1.0', tenantId: 'acme', tenant: { id: 'acme' }, dataContentType: 'application/json', data: { id: 1 }, dispatched: true,
  });
  t.equal(page.data.events.pageInfo.hasNextPage, true);
  t.equal(page.data.events.totalCount, 2, 'totalCount counts the filter');
  const next = await gql(`query($after: String) { events(filter: {type: "order.*"}, first: 5, after: $after) { edges { node { id } } pageInfo { hasNextPage } } }`,
    { after: page.data.events.pageInfo.endCursor });
  t.same(next.data.events.edges.map((e: { node: { id: string } }) => e.node.id), [first.event.id], 'the next page holds the older one');
  t.equal(next.data.events.pageInfo.hasNextPage, false);
  const end = await gql(`{ events(filter: {type: "order.*"}, last: 1) { edges { node { id } } pageInfo { hasPreviousPage hasNextPage startCursor } totalCount } }`);
  t.same(end.data.events.edges.map((e: { node: { id: string } }) => e.node.id), [first.event.id], 'last: the oldest, the end of the list');
  t.match(end.data.events, { pageInfo: { hasPreviousPage: true, hasNextPage: false }, totalCount: 2 });
  const newer = await gql(`{ events(filter: {type: "order.*"}, last: 5, before: "${end.data.events.pageInfo.startCursor}") {
    edges { node { id } } pageInfo { hasPreviousPage hasNextPage } } }`);
  t.same(newer.data.events.edges.map((e: { node: { id: string } }) => e.node.id), [page.data.events.edges[0].node.id], 'before it: the newer one');
  t.match(newer.data.events.pageInfo, { hasPreviousPage: false, hasNextPage: true });
  const later = await gql(`{ events(filter: {timeAfter: "${new Date(Date.now() + 60_000).toISOString()}"}) { edges { node { id } } totalCount } }`);
  t.same(later.data.events, { edges: [], totalCount: 0 }, 'timeAfter bounds the time');

  const list = await gql(`{ triggers(first: 10) { edges { node { name kind eventType active dedupKey dedupWindowSeconds nextFireAt
    scheduleConfig { cron timezone missedFirePolicy } recentDispatches(limit: 5) { origin status dedupKey eventId } } } } }`);
  const [nightly, orders] = list.data.triggers.edges.map((e: { node: unknown }) => e.node);
  t.match(nightly, { name: 'nightly', kind: 'SCHEDULED', eventType: 'schedule.fired', scheduleConfig: { cron: '0 3 * * *', timezone: 'Europe/Oslo', missedFirePolicy: 'CATCH_UP_ONCE' }, recentDispatches: [] });
  t.ok(nightly.nextFireAt);
  t.match(orders, { name: 'orders', kind: 'REACTIVE', eventType: 'order.*', active: true, dedupKey: '{{event.data.id}}', dedupWindowSeconds: 300 });
  t.same(orders.recentDispatches.map((d: { status: string }) => d.status), ['DEDUPLICATED', 'STARTED']);
  t.equal(orders.recentDispatches[1].eventId, first.event.id);

  const one = await gql(`{ trigger(name: "orders") { name dispatches(first: 1) { edges { node { status origin executionId } } pageInfo { hasNextPage } totalCount } } }`);
  t.match(one.data.trigger.dispatches, { edges: [{ node: { status: 'DEDUPLICATED', origin: 'EVENT', executionId: null } }], pageInfo: { hasNextPage: true }, totalCount: 2 });
  const oldest = await gql(`{ trigger(name: "orders") { dispatches(last: 1) { edges { node { status eventId event { id data } executionId execution { id workflowName } } }
    pageInfo { hasPreviousPage hasNextPage } } } }`);
  t.notOk(oldest.errors, JSON.stringify(oldest.errors));
  const started = oldest.data.trigger.dispatches.edges[0].node;
  t.match(started, { status: 'STARTED', eventId: first.event.id, event: { id: first.event.id, data: { id: 1 } }, execution: { workflowName: 'record' } });
  t.equal(started.execution.id, started.executionId, 'the execution it started, as an object');
  t.match(oldest.data.trigger.dispatches.pageInfo, { hasPreviousPage: true, hasNextPage: false });
  t.same((await gql(`{ trigger(name: "nope") { name } }`)).data.trigger, null);
  const filtered = await gql(`{ triggers(filter: {activeOnly: true, eventType: "order.created"}) { edges { node { name } } totalCount } }`);
  t.same(filtered.data.triggers.edges.map((e: { node: { name: string } }) => e.node.name), ['orders']);
  t.equal(filtered.data.triggers.totalCount, 1);
  const lastTrigger = await gql(`{ triggers(last: 1) { edges { node { name } } pageInfo { hasPreviousPage } totalCount } }`);
  t.same(lastTrigger.data.triggers, { edges: [{ node: { name: 'orders' } }], pageInfo: { hasPreviousPage: true }, totalCount: 2 }, 'last: the end of the list by name');
  const anonymous = await tp.request({ method: 'POST', url: '/graphql', payload: { query: '{ triggers { edges { node { name } } } }' } });
  t.equal(anonymous.body.errors[0].extensions.code, 'UNAUTHENTICATED');
});
