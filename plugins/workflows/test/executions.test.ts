// Executions: ACTION chains with templates, CONDITION branches, failures and
// retries, cancel, lists, GraphQL, duplicate step jobs and tenant isolation.
import t from 'tap';
import { sql } from 'kysely';
import { tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';
import {
  defineWorkflow, execute, getExecution, memberOf, probeCalls, recordedEvents, settled, startWorkflowsPlatform, until, waitStep,
} from './helpers.ts';

const isoTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

t.test('an ACTION chain resolves templates, runs in order and completes with its context', async (t) => {
  const tp = await startWorkflowsPlatform(t);
  const a = await tenantWithAdmin(tp, 'wf-chain');
  await defineWorkflow(tp, a.token, {
    name: 'process-order',
    steps: [
      { id: 'record', type: 'ACTION', handler: 'probe_record', arguments: { label: 'chain-{{inputs.run}}', echo: '{{inputs.order}}' }, output_key: 'recorded' },
      {
        id: 'say', type: 'ACTION', handler: 'log', output_key: 'said',
        arguments: { message: 'order {{inputs.order.id}} total {{recorded.echo.total}}', data: { call: '{{recorded.call}}' } },
      },
      { id: 'announce', type: 'ACTION', handler: 'emit_event', arguments: { type: 'order.processed', data: { order: '{{inputs.order.id}}', missing: '{{inputs.nope}}' } }, output_key: 'event' },
    ],
  });
  const inputs = { run: 1, order: { id: 7, total: 42 } };
  const started = await tp.request({ method: 'POST', url: '/api/admin/workflows/process-order/execute', token: a.token, payload: { inputs } });
  t.equal(started.status, 202);
  t.match(started.body, { execution_id: /^[0-9a-f-]{36}$/, workflow_name: 'process-order', status: 'running' });
  const id = started.body.execution_id;

  const done = await settled(tp, a.token, id);
  t.equal(done.status, 'completed');
  t.equal(done.current_step, null);
  t.same(done.pending_events, []);
  t.ok(done.finished_at, 'finished_at is set');
  const call = done.context.recorded.call;
  t.same(done.context, {
    inputs,
    recorded: { label: 'chain-1', call, echo: { id: 7, total: 42 } },
    said: { message: 'order 7 total 42', level: 'info' },
    event: { event_id: done.context.event.event_id, type: 'order.processed' },
  }, 'the context holds the inputs and every output_key; a whole-string template keeps its JSON type');
  t.same(done.steps.map((s: { step_id: string; status: string }) => [s.step_id, s.status]), [
    ['record', 'completed'], ['say', 'completed'], ['announce', 'completed'],
  ]);
  for (const step of done.steps) {
    t.match(step, { type: 'ACTION', started_at: isoTime, finished_at: isoTime, error: null });
    t.ok(step.duration_ms >= 0 && step.duration_ms === Date.parse(step.finished_at) - Date.parse(step.started_at), 'timings add up');
  }
  t.same((await probeCalls(tp, 'chain-1')).map((c) => c.execution_id), [id], 'the function ran once, with the execution as its context');

  const events = await recordedEvents(tp, { tenant: 'wf-chain' });
  const emitted = events.find((e) => e.type === 'order.processed');
  t.match(emitted, { id: done.context.event.event_id, source: '/workflows', data: { order: 7, missing: null } }, 'emit_event emitted a real event');
  const completed = events.filter((e) => e.type === 'workflow.completed');
  t.equal(completed.length, 1, 'workflow.completed once');
  t.same(completed[0].data, { execution_id: id, workflow_name: 'process-order', status: 'completed', context: done.context });
  t.ok(events.indexOf(emitted!) < events.indexOf(completed[0]), 'in the order they happened');

  const noBody = await tp.request({ method: 'POST', url: '/api/admin/workflows/process-order/execute', token: a.token });
  t.equal(noBody.status, 202, 'inputs are optional');
  t.same((await getExecution(tp, a.token, noBody.body.execution_id)).context.inputs, {});
  const unknown = await tp.request({ method: 'POST', url: '/api/admin/workflows/nope/execute', token: a.token, payload: { inputs: {} } });
  t.equal(unknown.status, 404);
  t.equal(unknown.body.code, 'WORKFLOW_NOT_FOUND');
});

t.test('CONDITION steps branch on the context', async (t) => {
  const tp = await startWorkflowsPlatform(t);
  const a = await tenantWithAdmin(tp, 'wf-branch');
  await defineWorkflow(tp, a.token, {
    name: 'route',
    steps: [
      { id: 'check', type: 'CONDITION', condition: { field: 'inputs.amount', operator: '>', value: 100 }, then_step: 'big', else_step: 'small' },
      { id: 'big', type: 'ACTION', handler: 'probe_record', arguments: { label: 'big' }, output_key: 'big', next: 'done' },
      { id: 'small', type: 'ACTION', handler: 'probe_record', arguments: { label: 'small' }, output_key: 'small' },
      { id: 'done', type: 'ACTION', handler: 'log', arguments: { message: 'routed' } },
    ],
  });
  const big = await settled(tp, a.token, await execute(tp, a.token, 'route', { amount: 500 }));
  t.equal(big.status, 'completed');
  t.same(big.steps.map((s: { step_id: string; status: string }) => [s.step_id, s.status]), [['check', 'then'], ['big', 'completed'], ['done', 'completed']]);
  t.ok(big.context.big && !('small' in big.context), 'only the then branch ran');

  const small = await settled(tp, a.token, await execute(tp, a.token, 'route', { amount: 5 }));
  t.same(small.steps.map((s: { step_id: string; status: string }) => [s.step_id, s.status]), [['check', 'else'], ['small', 'completed'], ['done', 'completed']]);
  t.ok(small.context.small && !('big' in small.context), 'only the else branch ran');
  t.equal((await probeCalls(tp, 'big')).length, 1);
  t.equal((await probeCalls(tp, 'small')).length, 1);
});

t.test('CONDITION branches: one falling into the other is refused with the fix; "end": true ends a branch', async (t) => {
  const tp = await startWorkflowsPlatform(t);
  const a = await tenantWithAdmin(tp, 'wf-branch-end');
  const check = { id: 'check', type: 'CONDITION', condition: { field: 'inputs.ok', operator: '==', value: true }, then_step: 'yes', else_step: 'no' };
  const yes = { id: 'yes', type: 'ACTION', handler: 'probe_record', arguments: { label: 'end-yes' }, output_key: 'yes' };
  const no = { id: 'no', type: 'ACTION', handler: 'probe_record', arguments: { label: 'end-no' }, output_key: 'no' };

  const refused = await tp.request({ method: 'POST', url: '/api/admin/workflows', token: a.token, payload: { name: 'both-run', steps: [check, yes, no] } });
  t.equal(refused.status, 400);
  t.equal(refused.body.code, 'INVALID_DEFINITION');
  t.match(refused.body.errors, [/step "check": the then_step branch \("yes"\) runs on into the else_step target "no".*give step "yes" an explicit "next".*or "end": true/]);
  t.equal((await tp.request({ url: '/api/admin/workflows/both-run', token: a.token })).status, 404, 'nothing was stored');
  const nullNext = await tp.request({ method: 'POST', url: '/api/admin/workflows', token: a.token, payload: { name: 'null-next', steps: [check, { ...yes, next: null }, no] } });
  t.equal(nullNext.status, 400);
  t.match(nullNext.body.errors, [/step "yes": next must name a step of this workflow \(to end the workflow after this step, write "end": true\)/]);

  await defineWorkflow(tp, a.token, { name: 'one-branch', steps: [check, { ...yes, end: true }, no] });
  const stored = await tp.request({ url: '/api/admin/workflows/one-branch', token: a.token });
  t.equal(stored.body.steps[1].end, true, 'end is stored with the step');
  const then = await settled(tp, a.token, await execute(tp, a.token, 'one-branch', { ok: true }));
  t.equal(then.status, 'completed');
  t.same(then.steps.map((s: { step_id: string; status: string }) => [s.step_id, s.status]), [['check', 'then'], ['yes', 'completed']]);
  t.ok(then.context.yes && !('no' in then.context), 'only the then branch ran');
  const otherwise = await settled(tp, a.token, await execute(tp, a.token, 'one-branch', { ok: false }));
  t.same(otherwise.steps.map((s: { step_id: string; status: string }) => [s.step_id, s.status]), [['check', 'else'], ['no', 'completed']]);
  t.equal((await probeCalls(tp, 'end-yes')).length, 1);
  t.equal((await probeCalls(tp, 'end-no')).length, 1);
});

t.test('a failing action fails the execution: client errors at once, other errors after actionAttempts', async (t) => {
  const tp = await startWorkflowsPlatform(t);
  const a = await tenantWithAdmin(tp, 'wf-fail');
  await defineWorkflow(tp, a.token, {
    name: 'refused',
    steps: [
      { id: 'try', type: 'ACTION', handler: 'probe_fail', arguments: { label: 'refused', message: 'no way', client_error: true } },
      { id: 'never', type: 'ACTION', handler: 'probe_record', arguments: { label: 'never' } },
    ],
  });
  await defineWorkflow(tp, a.token, {
    name: 'flaky',
    steps: [{ id: 'try', type: 'ACTION', handler: 'probe_fail', arguments: { label: 'flaky', message: 'upstream down' } }],
  });
  await defineWorkflow(tp, a.token, { name: 'unknown-fn', steps: [{ id: 'call', type: 'ACTION', handler: 'no_such_function' }] });
  await defineWorkflow(tp, a.token, { name: 'bad-args', steps: [{ id: 'call', type: 'ACTION', handler: 'log', arguments: { text: 'x' } }] });

  const refused = await settled(tp, a.token, await execute(tp, a.token, 'refused'));
  t.equal(refused.status, 'failed');
  t.match(refused.error, /step "try" failed: no way/);
  t.match(refused.steps, [{ step_id: 'try', status: 'failed', error: 'no way' }]);
  t.equal(refused.steps.length, 1, 'the next step never ran');
  t.equal((await probeCalls(tp, 'refused')).length, 1, 'a 4xx is not retried');
  t.equal((await probeCalls(tp, 'never')).length, 0);

  const flaky = await settled(tp, a.token, await execute(tp, a.token, 'flaky'));
  t.equal(flaky.status, 'failed');
  t.equal((await probeCalls(tp, 'flaky')).length, 2, 'another error is tried actionAttempts (2) times');

  const unknown = await settled(tp, a.token, await execute(tp, a.token, 'unknown-fn'));
  t.match(unknown.error, /Function not found: no_such_function/);
  const badArgs = await settled(tp, a.token, await execute(tp, a.token, 'bad-args'));
  t.match(badArgs.error, /Invalid arguments for log/);

  const failed = await recordedEvents(tp, { tenant: 'wf-fail', type: 'workflow.failed' });
  t.equal(failed.length, 4);
  t.same(failed.find((e) => e.data.execution_id === refused.execution_id)?.data, {
    execution_id: refused.execution_id, workflow_name: 'refused', status: 'failed', error: refused.error, step_id: 'try',
  });
  t.equal((await recordedEvents(tp, { tenant: 'wf-fail', type: 'workflow.completed' })).length, 0);
});

t.test('cancel ends a waiting execution, removes its timer, and is refused once ended', async (t) => {
  const tp = await startWorkflowsPlatform(t);
  const a = await tenantWithAdmin(tp, 'wf-cancel');
  const member = await memberOf(tp, 'wf-cancel');
  await defineWorkflow(tp, a.token, { name: 'hold', steps: [waitStep('hold', { event_type: 'go', timeout_seconds: 600 })] });
  const id = await execute(tp, a.token, 'hold');
  await settled(tp, a.token, id, ['waiting']);
  const timers = () => sql<{ n: number }>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${`wf-timeout:${id}:hold`}`
    .execute(tp.platform.core.db).then((r) => r.rows[0].n);
  t.equal(await timers(), 1, 'the wait has its keyed timeout job');

  t.equal((await tp.request({ method: 'POST', url: `/api/admin/executions/${id}/cancel`, token: member })).status, 403, 'members cannot cancel');
  const cancelled = await tp.request({ method: 'POST', url: `/api/admin/executions/${id}/cancel`, token: a.token });
  t.equal(cancelled.status, 200);
  t.match(cancelled.body, { status: 'cancelled', current_step: null, pending_events: [], wait: null });
  t.ok(cancelled.body.finished_at);
  t.match(cancelled.body.steps, [{ step_id: 'hold', status: 'cancelled' }]);
  t.equal(await timers(), 0, 'the timeout job is gone');

  const again = await tp.request({ method: 'POST', url: `/api/admin/executions/${id}/cancel`, token: a.token });
  t.equal(again.status, 409);
  t.equal(again.body.code, 'EXECUTION_ENDED');
  t.equal(await tp.platform.server.plugins.workflows.api.signal('wf-cancel', id, { event_type: 'go', data: {}, sender: 'api' }), false, 'no signal reaches it');
  const missing = await tp.request({ method: 'POST', url: '/api/admin/executions/00000000-0000-4000-8000-000000000000/cancel', token: a.token });
  t.equal(missing.status, 404);
  t.equal(missing.body.code, 'EXECUTION_NOT_FOUND');

  const failed = await recordedEvents(tp, { tenant: 'wf-cancel', type: 'workflow.failed' });
  t.same(failed.map((e) => e.data), [{ execution_id: id, workflow_name: 'hold', status: 'cancelled', error: 'cancelled', step_id: 'hold' }]);

  // Cancelled at once, before or after its start job ran: cancelled either way, and no timer is left.
  const early = await execute(tp, a.token, 'hold');
  t.match((await tp.request({ method: 'POST', url: `/api/admin/executions/${early}/cancel`, token: a.token })).body, { status: 'cancelled' });
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.match(await getExecution(tp, a.token, early), { status: 'cancelled', pending_events: [] }, 'the start job did not revive it');
  t.equal(await sql<{ n: number }>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${`wf-timeout:${early}:hold`}`
    .execute(tp.platform.core.db).then((r) => r.rows[0].n), 0);
});

t.test('lists filter by status and workflow; GraphQL pages executions and shows steps', async (t) => {
  const tp = await startWorkflowsPlatform(t);
  const a = await tenantWithAdmin(tp, 'wf-list');
  await defineWorkflow(tp, a.token, { name: 'quick', steps: [{ id: 'say', type: 'ACTION', handler: 'log', arguments: { message: 'hi' } }] });
  await defineWorkflow(tp, a.token, { name: 'hold', steps: [waitStep('hold', { event_type: 'go', timeout_seconds: 600 })] });
  const quick = [];
  for (let i = 0; i < 3; i++) quick.push(await execute(tp, a.token, 'quick', { i }));
  for (const id of quick) await settled(tp, a.token, id);
  const held = await execute(tp, a.token, 'hold');
  await settled(tp, a.token, held, ['waiting']);

  const all = await tp.request({ url: '/api/admin/executions', token: a.token });
  t.equal(all.body.total, 4);
  t.same(all.body.items.map((e: { execution_id: string }) => e.execution_id), [held, ...quick.toReversed()], 'newest first');
  const waiting = await tp.request({ url: '/api/admin/executions?status=waiting', token: a.token });
  t.same(waiting.body.items.map((e: { execution_id: string }) => e.execution_id), [held]);
  const byName = await tp.request({ url: '/api/admin/executions?workflow=quick&skip=1&limit=1', token: a.token });
  t.match(byName.body, { total: 3, skip: 1, limit: 1, items: [{ execution_id: quick[1], workflow_name: 'quick', status: 'completed' }] });
  t.equal((await tp.request({ url: '/api/admin/executions?status=sleeping', token: a.token })).status, 400);

  const gql = (query: string, variables: Record<string, unknown> = {}) =>
    tp.request({ method: 'POST', url: '/graphql', token: a.token, payload: { query, variables }, headers: { 'content-type': 'application/json' } });
  const LIST = `query($after: String) {
    executions(filter: { status: COMPLETED, workflowName: "quick" }, first: 2, after: $after) {
      edges { cursor node { id workflowName status } } pageInfo { hasNextPage endCursor } totalCount } }`;
  const page1 = await gql(LIST);
  t.notOk(page1.body.errors);
  t.same(page1.body.data.executions.edges.map((e: { node: unknown }) => e.node), [
    { id: quick[2], workflowName: 'quick', status: 'COMPLETED' }, { id: quick[1], workflowName: 'quick', status: 'COMPLETED' },
  ]);
  t.equal(page1.body.data.executions.pageInfo.hasNextPage, true);
  t.equal(page1.body.data.executions.totalCount, 3, 'totalCount: every execution the filter selects');
  const page2 = await gql(LIST, { after: page1.body.data.executions.pageInfo.endCursor });
  t.same(page2.body.data.executions.edges.map((e: { node: { id: string } }) => e.node.id), [quick[0]]);
  t.equal(page2.body.data.executions.pageInfo.hasNextPage, false);

  const BACK = `query($before: String) {
    executions(last: 2, before: $before) { edges { node { id } } pageInfo { hasPreviousPage hasNextPage startCursor } totalCount } }`;
  const end = await gql(BACK);
  t.notOk(end.body.errors);
  t.same(end.body.data.executions.edges.map((e: { node: { id: string } }) => e.node.id), [quick[1], quick[0]], 'last alone: the oldest two, in list order');
  t.match(end.body.data.executions, { pageInfo: { hasPreviousPage: true, hasNextPage: false }, totalCount: 4 });
  const before = await gql(BACK, { before: end.body.data.executions.pageInfo.startCursor });
  t.same(before.body.data.executions.edges.map((e: { node: { id: string } }) => e.node.id), [held, quick[2]], 'the page before: the newest two');
  t.match(before.body.data.executions.pageInfo, { hasPreviousPage: false, hasNextPage: true });

  const ONE = `query($id: ID!) { execution(id: $id) {
    id status currentStep pendingEvents context finishedAt
    steps { stepId type status startedAt finishedAt durationMs error } } }`;
  const one = await gql(ONE, { id: quick[0] });
  t.notOk(one.body.errors);
  t.match(one.body.data.execution, {
    id: quick[0], status: 'COMPLETED', currentStep: null, pendingEvents: [], context: { inputs: { i: 0 } },
    steps: [{ stepId: 'say', type: 'ACTION', status: 'COMPLETED', startedAt: isoTime, finishedAt: isoTime, error: null }],
  });
  const waitingOne = await gql(ONE, { id: held });
  t.match(waitingOne.body.data.execution, { status: 'WAITING', currentStep: 'hold', pendingEvents: ['go'], steps: [{ stepId: 'hold', status: 'WAITING', finishedAt: null, durationMs: null }] });
  t.equal((await gql(ONE, { id: 'not-a-uuid' })).body.data.execution, null);
  const badCursor = await gql(LIST, { after: 'garbage' });
  t.equal(badCursor.body.errors[0].extensions.code, 'BAD_USER_INPUT');
});

async function stepJob(tp: TestPlatform, executionId: string) {
  const { rows } = await sql<{ payload: Record<string, unknown> }>`
    SELECT j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks k ON k.id = j.task_id
    WHERE k.identifier = 'workflows.step' AND j.payload->>'execution_id' = ${executionId}`
    .execute(tp.platform.core.db);
  return rows[0]?.payload;
}

t.test('a step job run twice does not apply its result twice', async (t) => {
  const tp = await startWorkflowsPlatform(t);
  const a = await tenantWithAdmin(tp, 'wf-dup');
  await defineWorkflow(tp, a.token, {
    name: 'dup',
    steps: [
      { id: 'slow', type: 'ACTION', handler: 'probe_record', arguments: { label: 'dup-slow', sleep_ms: 1000 }, output_key: 'slow' },
      { id: 'after', type: 'ACTION', handler: 'probe_record', arguments: { label: 'dup-after' }, output_key: 'after' },
    ],
  });
  const id = await execute(tp, a.token, 'dup');
  const payload = await until(() => stepJob(tp, id), 'the slow step\'s job');
  // The same job again while the first is still in its function call.
  await tp.platform.core.jobs.enqueue('workflows.step', payload);
  const done = await settled(tp, a.token, id);
  t.equal(done.status, 'completed');
  const slowCalls = await until(async () => {
    const calls = await probeCalls(tp, 'dup-slow');
    return calls.length === 2 ? calls : undefined;
  }, 'both copies to have called the function');
  t.equal(slowCalls.length, 2, 'both copies ran the action (at-least-once)');
  t.same(done.steps.map((s: { step_id: string }) => s.step_id), ['slow', 'after'], 'one history record per step');
  t.equal((await probeCalls(tp, 'dup-after')).length, 1, 'the next step was started once');

  // A copy of a step the execution has left does not even call the function.
  const before = await getExecution(tp, a.token, id);
  await tp.platform.core.jobs.enqueue('workflows.step', payload);
  await until(async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'workflows.step'`
    .execute(tp.platform.core.db)).rows[0].n === 0, 'the late copy to run');
  t.equal((await probeCalls(tp, 'dup-slow')).length, 2, 'no third call');
  t.same(await getExecution(tp, a.token, id), before, 'the execution is untouched');
  t.equal((await recordedEvents(tp, { tenant: 'wf-dup', type: 'workflow.completed' })).length, 1, 'completed once');
});

t.test('cancelling a running execution removes its pending step job: the action is never called', async (t) => {
  // Workers off until the cancel is done: the step job is pending, not running.
  const tp = await startWorkflowsPlatform(t, { listen: false });
  const a = await tenantWithAdmin(tp, 'wf-cancel-action');
  await defineWorkflow(tp, a.token, { name: 'call', steps: [{ id: 'call', type: 'ACTION', handler: 'probe_record', arguments: { label: 'never-called' } }] });
  const id = await execute(tp, a.token, 'call');
  t.match(await stepJob(tp, id), { execution_id: id, step_id: 'call', seq: 1 }, 'the step job is queued');
  const cancelled = await tp.request({ method: 'POST', url: `/api/admin/executions/${id}/cancel`, token: a.token });
  t.equal(cancelled.status, 200);
  t.match(cancelled.body, { status: 'cancelled', steps: [{ step_id: 'call', status: 'cancelled' }] });
  t.equal(await stepJob(tp, id), undefined, 'the cancel removed the step job');
  await tp.platform.start();
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'workflows.step'`.execute(tp.platform.core.db);
  t.equal(rows[0].n, 0);
  t.same(await probeCalls(tp, 'never-called'), [], 'the action was not called');
  t.match(await getExecution(tp, a.token, id), { status: 'cancelled' });
});

t.test('another tenant can neither read nor signal nor cancel an execution', async (t) => {
  const tp = await startWorkflowsPlatform(t);
  const a = await tenantWithAdmin(tp, 'wf-iso-a');
  const b = await tenantWithAdmin(tp, 'wf-iso-b');
  await defineWorkflow(tp, a.token, { name: 'hold', steps: [waitStep('hold', { event_type: 'go', timeout_seconds: 600, output_key: 'go' })] });
  const id = await execute(tp, a.token, 'hold');
  await settled(tp, a.token, id, ['waiting']);

  for (const url of [`/api/admin/executions/${id}`, `/api/admin/executions/${id}/pending-events`]) {
    const seen = await tp.request({ url, token: b.token });
    t.equal(seen.status, 404, `${url} is not found for tenant b`);
    t.equal(seen.body.code, 'EXECUTION_NOT_FOUND');
  }
  t.equal((await tp.request({ method: 'POST', url: `/api/admin/executions/${id}/cancel`, token: b.token })).status, 404);
  t.equal((await tp.request({ url: '/api/admin/executions', token: b.token })).body.total, 0);
  t.equal((await tp.request({ url: `/api/admin/executions/${id}`, token: a.token, tenant: 'wf-iso-b' })).status, 403, 'a is no member of b');
  const api = tp.platform.server.plugins.workflows.api;
  t.equal(await api.signal('wf-iso-b', id, { event_type: 'go', data: {}, sender: 'api' }), false, 'a signal in the wrong tenant is not delivered');
  t.equal(await api.signal('wf-iso-a', 'not-a-uuid', { event_type: 'go', data: {}, sender: 'api' }), false);
  const still = await getExecution(tp, a.token, id);
  t.match(still, { status: 'waiting', buffered_signals: 0 }, 'nothing reached it');
  t.equal(await api.signal('wf-iso-a', id, { event_type: 'go', data: { ok: true }, sender: 'api' }), true);
  t.match((await settled(tp, a.token, id)).context.go, { output: { ok: true }, source: 'signal' });
});

t.test('a stale step job from an earlier pass of a loop is ignored', async (t) => {
  const tp = await startWorkflowsPlatform(t);
  const a = await tenantWithAdmin(tp, 'wf-loop');
  await defineWorkflow(tp, a.token, {
    name: 'loop',
    steps: [
      { id: 'work', type: 'ACTION', handler: 'probe_record', arguments: { label: 'loop-work', sleep_ms: 600 }, output_key: 'work' },
      waitStep('again', { event_type: 'again', timeout_seconds: 600, output_key: 'again' }),
      { id: 'check', type: 'CONDITION', condition: { field: 'again.output.done', operator: '==', value: true }, else_step: 'work' },
    ],
  });
  const id = await execute(tp, a.token, 'loop');
  const firstPass = await until(() => stepJob(tp, id), 'the first pass\'s job');
  await settled(tp, a.token, id, ['waiting']);
  const api = tp.platform.server.plugins.workflows.api;
  t.equal(await api.signal('wf-loop', id, { event_type: 'again', data: { done: false }, sender: 'api' }), true);
  await until(async () => (await getExecution(tp, a.token, id)).current_step === 'work', 'the second pass');
  // The first pass's job again, while the second pass stands on the same step.
  await tp.platform.core.jobs.enqueue('workflows.step', firstPass);
  await settled(tp, a.token, id, ['waiting']);
  t.equal(await api.signal('wf-loop', id, { event_type: 'again', data: { done: true }, sender: 'api' }), true);
  const done = await settled(tp, a.token, id);
  t.equal(done.status, 'completed');
  t.same(done.steps.map((s: { step_id: string; status: string }) => `${s.step_id}:${s.status}`), [
    'work:completed', 'again:signal', 'check:else', 'work:completed', 'again:signal', 'check:then',
  ], 'two passes, nothing applied out of turn');
  t.equal((await probeCalls(tp, 'loop-work')).length, 2, 'the stale job did not call the function');
});

t.test('one GraphQL query reads an execution\'s steps, what it waits for and the signals it holds', async (t) => {
  const tp = await startWorkflowsPlatform(t);
  const a = await tenantWithAdmin(tp, 'wf-graph');
  const api = tp.platform.server.plugins.workflows.api;
  await defineWorkflow(tp, a.token, {
    name: 'gate',
    steps: [
      { id: 'say', type: 'ACTION', handler: 'log', arguments: { message: 'hi' } },
      waitStep('nap', { timeout_seconds: 1 }),
      waitStep('hold', { event_type: 'go', event_filter: { approved: [true] }, timeout_seconds: 600 }),
    ],
  });
  const id = await execute(tp, a.token, 'gate');
  await until(async () => (await getExecution(tp, a.token, id)).current_step === 'hold', 'the execution waits at hold', 30_000);
  t.equal(await api.signal('wf-graph', id, { event_type: 'go', data: { approved: false }, sender: 'api' }), true, 'a signal the filter refuses is buffered');

  const query = `query($id: ID!) { execution(id: $id) {
    status bufferedSignalCount
    wait { stepId kind eventType eventFilter deadline step { stepId status startedAt } }
    bufferedSignals { eventType data sender receivedAt }
    steps { stepId type status startedAt finishedAt durationMs } } }`;
  const response = await tp.request({ method: 'POST', url: '/graphql', token: a.token, payload: { query, variables: { id } } });
  t.notOk(response.body.errors, JSON.stringify(response.body.errors));
  const execution = response.body.data.execution;
  const rest = await getExecution(tp, a.token, id);
  t.match(execution, {
    status: 'WAITING', bufferedSignalCount: rest.buffered_signals,
    wait: { stepId: 'hold', kind: 'EVENT', eventType: 'go', eventFilter: { approved: [true] }, deadline: rest.wait.deadline, step: { stepId: 'hold', status: 'WAITING' } },
    bufferedSignals: [{ eventType: 'go', data: { approved: false }, sender: 'api', receivedAt: isoTime }],
  });
  t.equal(execution.bufferedSignalCount, 1);
  t.same(execution.steps.map((step: { stepId: string; type: string; status: string }) => [step.stepId, step.type, step.status]),
    [['say', 'ACTION', 'COMPLETED'], ['nap', 'WAIT', 'TIMEOUT'], ['hold', 'WAIT', 'WAITING']], 'the history: the timer resumed by its deadline');
  t.ok(execution.steps[1].durationMs >= 1000, 'the timer\'s step lasted until its deadline');
});
