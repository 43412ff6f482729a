// Event chains: a workflow that re-emits into its own
// trigger stops at EVENTS_MAX_CHAIN_DEPTH (default 8) with a dispatch error
// recorded; each event carries its depth as the CloudEvents extension
// `chaindepth`.
import t from 'tap';
import { asCloudEvent, createTrigger, dispatched, dispatchesOf, emit, eventsFixture, executionsOf, until } from './helpers.ts';

async function loopingWorkflow(tp: Parameters<typeof emit>[0], token: string, name: string, emits: string) {
  const created = await tp.request({
    method: 'POST', url: '/api/admin/workflows', token,
    payload: { name, steps: [{ id: 'again', type: 'ACTION', handler: 'emit_event', arguments: { type: emits, data: { hop: '{{inputs.event.data.hop}}' } } }] },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
}

async function eventsOfType(tp: Parameters<typeof emit>[0], token: string, type: string) {
  const recent = await tp.request({ url: `/api/admin/triggers/events/recent?limit=500&type=${type}`, token });
  return (recent.body.items as Record<string, any>[]).reverse();
}

t.test('a workflow re-emitting into its own trigger stops after 8 links with a dispatch error recorded', async (t) => {
  const { tp, token } = await eventsFixture(t);
  await loopingWorkflow(tp, token, 'echo', 'loop.ping');
  await createTrigger(tp, token, { name: 'looper', event_type: 'loop.ping', target_name: 'echo' });
  const first = await emit(tp, token, 'loop.ping', { hop: 0 });
  t.notOk('chaindepth' in first.event, 'an event no chain led to has no chaindepth');

  await until(async () => (await dispatchesOf(tp, token, 'looper')).some((d) => d.status === 'FAILED'), 'the chain to be stopped', 60_000);
  await dispatched(tp, token);
  await new Promise((resolve) => setTimeout(resolve, 500));
  await dispatched(tp, token);

  const records = (await dispatchesOf(tp, token, 'looper')).reverse();
  t.same(records.map((r) => r.status), [...Array(8).fill('STARTED'), 'FAILED'], 'eight workflows started, then the chain stopped');
  t.match(records[8].error, /^CHAIN_DEPTH_EXCEEDED: .*8 links.*EVENTS_MAX_CHAIN_DEPTH 8/);
  t.equal(records[8].executionId, null);
  t.equal((await executionsOf(tp, token, 'echo')).length, 8, 'and no ninth execution');

  const events = await eventsOfType(tp, token, 'loop.ping');
  t.equal(events.length, 9, 'the first event and one per execution');
  t.same(events.map((e) => e.chaindepth ?? 0), [0, 1, 2, 3, 4, 5, 6, 7, 8], 'each one link deeper');
  t.equal(records[8].eventId, events[8].id, 'the refused dispatch is the deepest event\'s');
  for (const event of events) {
    const { seq: _seq, dispatched: _dispatched, ...envelope } = event;
    const parsed = asCloudEvent(envelope);
    t.equal(parsed.type, 'loop.ping');
    if (event.chaindepth) t.equal((parsed as unknown as Record<string, unknown>).chaindepth, event.chaindepth, 'the extension survives a CloudEvents parse');
  }
  const graphql = await tp.request({ method: 'POST', url: '/graphql', token, payload: { query: '{ events(filter: { type: "loop.ping" }, first: 20) { edges { node { chainDepth } } } }' } });
  t.same(graphql.body.data.events.edges.map((e: any) => e.node.chainDepth), [8, 7, 6, 5, 4, 3, 2, 1, 0], 'GraphQL shows the depth, newest first');
  // workflow.completed of a chained execution is a link of the chain too.
  const completed = await eventsOfType(tp, token, 'workflow.completed');
  t.same(completed.map((e) => e.chaindepth ?? 0).sort(), [1, 2, 3, 4, 5, 6, 7, 8]);
});

t.test('EVENTS_MAX_CHAIN_DEPTH sets the length; two workflows feeding each other stop too', async (t) => {
  const { tp, token } = await eventsFixture(t, { env: { EVENTS_MAX_CHAIN_DEPTH: '3' } });
  await loopingWorkflow(tp, token, 'ping', 'ball.pong');
  await loopingWorkflow(tp, token, 'pong', 'ball.ping');
  await createTrigger(tp, token, { name: 'on-ping', event_type: 'ball.ping', target_name: 'ping' });
  await createTrigger(tp, token, { name: 'on-pong', event_type: 'ball.pong', target_name: 'pong' });
  await emit(tp, token, 'ball.ping', {});
  await until(async () => [...await dispatchesOf(tp, token, 'on-ping'), ...await dispatchesOf(tp, token, 'on-pong')].some((d) => d.status === 'FAILED'), 'the rally to stop', 60_000);
  await dispatched(tp, token);
  const all = [...await dispatchesOf(tp, token, 'on-ping'), ...await dispatchesOf(tp, token, 'on-pong')];
  t.equal(all.filter((d) => d.status === 'STARTED').length, 3, 'three workflows started');
  t.equal(all.filter((d) => d.status === 'FAILED').length, 1, 'the fourth link was refused');
  // An event emitted by hand starts a new chain.
  await emit(tp, token, 'ball.pong', {});
  await until(async () => (await dispatchesOf(tp, token, 'on-pong')).length >= 3, 'a new rally', 60_000);
});
