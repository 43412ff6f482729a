// Dispatch: every active matching trigger starts one workflow per event with
// its mapped inputs; inactive and non-matching triggers do not; dedup keys;
// tenants never see each other's events; a failing start is recorded and
// does not hold up the stream.
import t from 'tap';
import { tenantWithAdmin } from 'agent-platform/sdk/testing';
import {
  createTrigger, createWorkflow, dispatched, dispatchesOf, emit, eventsFixture, execution, executionsOf, rawClient, startEventsPlatform, until,
} from './helpers.ts';

t.test('one event matching three triggers starts three independent workflows with their mapped inputs', async (t) => {
  const { tp, token } = await eventsFixture(t);
  await createWorkflow(tp, token, 'notify');
  await createTrigger(tp, token, { name: 'exact', event_type: 'document.ingestion.completed', target_name: 'record', input_mapping: { doc: '{{event.data.document_id}}', via: 'exact' } });
  await createTrigger(tp, token, { name: 'prefix', event_type: 'document.*', target_name: 'record', input_mapping: { doc: '{{event.data.document_id}}', via: 'prefix' } });
  // ignore_own_results: its own workflows' workflow.completed would start it again (up to the chain bound).
  await createTrigger(tp, token, { name: 'everything', event_type: '*', target_name: 'notify', ignore_own_results: true, input_mapping: { type: '{{event.type}}', id: '{{event.id}}', tenant: '{{event.tenantid}}', data: '{{event.data}}' } });
  await createTrigger(tp, token, { name: 'sleeping', event_type: '*', target_name: 'notify', active: false });
  await createTrigger(tp, token, { name: 'other-type', event_type: 'document.uploaded', target_name: 'notify' });
  await createTrigger(tp, token, { name: 'filtered-out', event_type: 'document.*', target_name: 'notify', event_filter: { 'data.pages': [{ numeric: ['>', 100] }] } });

  const emitted = await emit(tp, token, 'document.ingestion.completed', { document_id: 'd-1', pages: 3 });
  await dispatched(tp, token);

  const records = await executionsOf(tp, token, 'record');
  t.equal(records.length, 2, 'exact and prefix each started record');
  const inputs = await Promise.all(records.map(async (r) => (await execution(tp, token, r.execution_id)).context.inputs));
  t.same(inputs.map((i) => i.via).sort(), ['exact', 'prefix']);
  t.ok(inputs.every((i) => i.doc === 'd-1'));
  t.same(records.map((r) => r.origin).sort((a, b) => String(a.id).localeCompare(String(b.id))), [{ type: 'trigger', id: 'exact', chaindepth: 0, acting_for: { kind: 'user', sub: 'acme-admin' } }, { type: 'trigger', id: 'prefix', chaindepth: 0, acting_for: { kind: 'user', sub: 'acme-admin' } }],
    'the origin names the trigger, the depth of the event that started it and the trigger\'s creator');

  const notified = await executionsOf(tp, token, 'notify');
  const everything = notified.filter((n) => n.origin.id === 'everything');
  t.ok(everything.length >= 1, 'the catch-all started notify');
  const forThisEvent = await Promise.all(everything.map(async (n) => (await execution(tp, token, n.execution_id)).context.inputs));
  t.ok(forThisEvent.some((i) => i.id === emitted.event.id && i.type === 'document.ingestion.completed' && i.tenant === 'acme'
    && i.data.document_id === 'd-1' && i.data.pages === 3), 'a whole-object template keeps the object');
  t.notOk(notified.some((n) => ['sleeping', 'other-type', 'filtered-out'].includes(String(n.origin.id))), 'inactive, other-type and filtered-out triggers did not fire');
  t.same((await dispatchesOf(tp, token, 'sleeping')), []);
  const exact = await dispatchesOf(tp, token, 'exact');
  t.match(exact, [{ origin: 'EVENT', status: 'STARTED', eventId: emitted.event.id }]);
});

t.test('a dedup key starts one workflow per window; the window is measured on event time', async (t) => {
  const { tp, token } = await eventsFixture(t);
  await createTrigger(tp, token, { name: 'once', event_type: 'payment.*', target_name: 'record', dedup_key: 'pay-{{event.data.payment_id}}', dedup_window_seconds: 2 });
  await emit(tp, token, 'payment.received', { payment_id: 1 });
  await emit(tp, token, 'payment.retried', { payment_id: 1 });
  await emit(tp, token, 'payment.received', { payment_id: 2 });
  await dispatched(tp, token);
  t.equal((await executionsOf(tp, token, 'record')).length, 2, 'the repeat of key pay-1 inside the window started nothing');
  const records = await dispatchesOf(tp, token, 'once');
  t.same(records.map((r) => [r.status, r.dedupKey]).reverse(), [['STARTED', 'pay-1'], ['DEDUPLICATED', 'pay-1'], ['STARTED', 'pay-2']]);

  await new Promise((resolve) => setTimeout(resolve, 2100));
  await emit(tp, token, 'payment.received', { payment_id: 1 });
  await dispatched(tp, token);
  t.equal((await executionsOf(tp, token, 'record')).length, 3, 'after the window the key starts again');
  const templateless = await dispatchesOf(tp, token, 'once');
  t.equal(templateless[0].status, 'STARTED');
});

t.test('tenant A\'s events never match tenant B\'s triggers', async (t) => {
  const { tp, token } = await eventsFixture(t);
  const other = await tenantWithAdmin(tp, 'globex');
  await createWorkflow(tp, other.token, 'record');
  await createTrigger(tp, other.token, { name: 'catch-all', event_type: '*', target_name: 'record', ignore_own_results: true });
  await emit(tp, token, 'order.created', { id: 1 });
  await emit(tp, token, 'order.created', { id: 2 });
  await emit(tp, other.token, 'ping', {});
  await dispatched(tp, token);
  await dispatched(tp, other.token);
  const theirs = await executionsOf(tp, other.token, 'record');
  t.equal(theirs.length, 1, 'globex\'s catch-all saw only globex\'s own event');
  const seen = await execution(tp, other.token, theirs[0].execution_id);
  t.equal(seen.context.inputs.event.type, 'ping');
  t.equal(seen.context.inputs.event.tenantid, 'globex', 'without a mapping the workflow gets {event}');
  t.same(await executionsOf(tp, token, 'record'), [], 'and acme has no trigger: nothing started');
});

t.test('a start that fails for good is recorded and the stream goes on', async (t) => {
  const { tp, token } = await eventsFixture(t);
  await createTrigger(tp, token, { name: 'broken', event_type: 'order.*', target_name: 'no-such-workflow', dedup_key: '{{event.data.id}}' });
  await createTrigger(tp, token, { name: 'working', event_type: 'order.*', target_name: 'record' });
  await emit(tp, token, 'order.created', { id: 1 });
  await emit(tp, token, 'order.created', { id: 1 });
  await dispatched(tp, token);
  const broken = await dispatchesOf(tp, token, 'broken');
  t.equal(broken.length, 2);
  t.ok(broken.every((r) => r.status === 'FAILED' && /WORKFLOW_NOT_FOUND/.test(r.error ?? '')), 'each failure is recorded');
  t.ok(broken.every((r) => r.dedupKey === '1'), 'a failed start does not use up its dedup window');
  t.equal((await executionsOf(tp, token, 'record')).length, 2, 'the other trigger started both');
});

t.test('events are dispatched in stream order, each exactly once', async (t) => {
  const { tp, token } = await eventsFixture(t);
  await createTrigger(tp, token, { name: 'all-orders', event_type: 'order.created', target_name: 'record', input_mapping: { n: '{{event.data.n}}' } });
  const { core } = tp.platform;
  // Emitted concurrently from many transactions, as plugins do.
  await Promise.all(Array.from({ length: 60 }, (_, n) =>
    core.withTenant('acme', (trx) => core.events.emit(trx, 'acme', { type: 'order.created', source: '/shop', data: { n } }))));
  await dispatched(tp, token);
  const client = await rawClient(t, tp.databaseUrl);
  const { rows } = await client.query(`SELECT event_seq FROM trigger_dispatches WHERE tenant_id = 'acme' AND trigger_name = 'all-orders' ORDER BY id`);
  const seqs = rows.map((r) => Number(r.event_seq));
  t.equal(seqs.length, 60, 'one dispatch per event');
  t.same(seqs, [...seqs].sort((a, b) => a - b), 'in sequence order');
  t.equal(new Set(seqs).size, 60, 'none twice');
  t.equal((await executionsOf(tp, token, 'record')).length, 60);
});

t.test('a trigger on workflow.failed reacts to its own workflow\'s failure like to any other; the chain bound stops the loop', async (t) => {
  const { tp, token } = await eventsFixture(t, { env: { EVENTS_MAX_CHAIN_DEPTH: '3' } });
  const fragile = await tp.request({
    method: 'POST', url: '/api/admin/workflows', token,
    payload: { name: 'fragile', steps: [{ id: 'call', type: 'ACTION', handler: 'no_such_function' }] },
  });
  t.equal(fragile.status, 201);
  const trigger = await createTrigger(tp, token, { name: 'on-failure', event_type: 'workflow.failed', target_name: 'fragile' });
  t.equal(trigger.ignore_own_results, false, 'off by default');

  const first = await tp.request({ method: 'POST', url: '/api/admin/workflows/fragile/execute', token, payload: {} });
  t.equal(first.status, 202);
  await until(async () => (await dispatchesOf(tp, token, 'on-failure')).some((d) => d.status === 'FAILED'), 'the chain to be stopped', 60_000);
  await dispatched(tp, token);
  const records = (await dispatchesOf(tp, token, 'on-failure')).reverse();
  t.same(records.map((r) => r.status), ['STARTED', 'STARTED', 'STARTED', 'FAILED'], 'each failure of its own workflow started it again, up to the bound');
  t.match(records[3].error, /^CHAIN_DEPTH_EXCEEDED: .*3 links.*EVENTS_MAX_CHAIN_DEPTH 3/);
  const executions = await executionsOf(tp, token, 'fragile');
  t.equal(executions.length, 4, 'the execution started by hand and three started by the trigger');
  t.ok(executions.every((e) => e.status === 'failed'));
});

t.test('ignore_own_results: the trigger skips the ends of executions it started, and only those', async (t) => {
  const { tp, token } = await eventsFixture(t);
  await createWorkflow(tp, token, 'notify');
  const created = await createTrigger(tp, token, { name: 'catch-all', event_type: '*', target_name: 'record', ignore_own_results: true });
  t.equal(created.ignore_own_results, true);
  await createTrigger(tp, token, { name: 'on-ping', event_type: 'ping', target_name: 'notify' });
  await emit(tp, token, 'ping', {});
  // ping starts record (catch-all) and notify (on-ping); notify's completion starts record again; record's completions start nothing.
  await until(async () => (await tp.request({ url: '/api/admin/triggers/events/recent?type=workflow.completed', token })).body.items.length === 3, 'three workflows to complete');
  await dispatched(tp, token);
  const records = await executionsOf(tp, token, 'record');
  t.equal(records.length, 2, 'ping and notify\'s workflow.completed each started record; record\'s own completions did not');
  const catchAll = (await dispatchesOf(tp, token, 'catch-all')).reverse();
  t.same(catchAll.map((d) => d.status), ['STARTED', 'STARTED'], 'its own results leave no dispatch record');
  const recent = (await tp.request({ url: '/api/admin/triggers/events/recent', token })).body.items as { id: string; type: string; data: { workflow_name?: string } }[];
  const notifyDone = recent.find((e) => e.type === 'workflow.completed' && e.data.workflow_name === 'notify')!;
  t.equal(catchAll[1].eventId, notifyDone.id, 'the second start was for notify\'s completion');

  // A backfill skips them too.
  const backfill = await tp.request({ method: 'POST', url: '/api/admin/triggers/catch-all/backfill', token, payload: {} });
  t.equal(backfill.status, 200);
  t.equal(backfill.body.scanned - backfill.body.matched, 2, 'record\'s two completions were not matched');
  t.equal(backfill.body.dispatched, backfill.body.matched);
  await until(async () => (await tp.request({ url: '/api/admin/triggers/events/recent?type=workflow.completed', token })).body.items.length === 3 + backfill.body.dispatched, 'the backfilled workflows to complete');
  await dispatched(tp, token);
  t.equal((await executionsOf(tp, token, 'record')).length, 2 + backfill.body.dispatched, 'their completions started nothing either');

  // Settable on update and shown by GraphQL; reactive triggers only.
  const off = await tp.request({ method: 'PUT', url: '/api/admin/triggers/catch-all', token, payload: { ignore_own_results: false } });
  t.equal(off.status, 200);
  t.equal(off.body.ignore_own_results, false);
  const graphql = await tp.request({ method: 'POST', url: '/graphql', token, payload: { query: '{ trigger(name: "catch-all") { ignoreOwnResults } }' } });
  t.same(graphql.body.data, { trigger: { ignoreOwnResults: false } });
  const scheduled = await tp.request({
    method: 'POST', url: '/api/admin/triggers', token,
    payload: { name: 'nightly', target_name: 'record', schedule_config: { cron: '0 3 * * *' }, ignore_own_results: true },
  });
  t.equal(scheduled.status, 400);
  t.match(scheduled.body, { code: 'VALIDATION_FAILED', fields: ['ignore_own_results'] });
  t.equal((await tp.request({ method: 'PUT', url: '/api/admin/triggers/catch-all', token, payload: { ignore_own_results: 'yes' } })).status, 400);
});

t.test('the dispatcher job is queued ahead of other due jobs (priority -1), so a backlog of steps does not stall the stream', async (t) => {
  // Workers off: the queued jobs stay as they were enqueued.
  const tp = await startEventsPlatform(t);
  const { token } = await tenantWithAdmin(tp, 'acme');
  await createWorkflow(tp, token, 'record');
  await tp.request({ method: 'POST', url: '/api/admin/workflows/record/execute', token, payload: {} });
  const client = await rawClient(t, tp.databaseUrl);
  const jobs = async () => (await client.query(`SELECT t.identifier, j.priority, j.key FROM graphile_worker._private_jobs j
    JOIN graphile_worker._private_tasks t ON t.id = j.task_id ORDER BY t.identifier`)).rows;
  // The dispatcher is woken once the emitting transaction has committed, beside the response: wait for its job.
  const rows = await until(async () => {
    const queued = await jobs();
    return queued.some((job) => job.identifier === 'events.dispatch') && queued;
  }, 'the dispatcher job');
  t.match(rows, [
    { identifier: 'events.dispatch', priority: -1, key: 'events:dispatch:acme' },
    { identifier: 'workflows.step', priority: 0, key: /^wf-step:[0-9a-f-]{36}:1$/ },
  ]);
  t.equal(rows.length, 2);
});
