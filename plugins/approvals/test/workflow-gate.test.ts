// The APPROVAL step: the execution opens a case and
// waits (status waiting, pending-events approval.resolved) until the case is
// approved, rejected, expired (the clock driven by moving the keyed job) or
// cancelled with its execution; it survives a restart; a trigger on
// approval.resolved starts a workflow; without the approvals plugin an
// APPROVAL step is refused naming it.
import t from 'tap';
import { startTestPlatform, tenantWithAdmin } from 'agent-platform/sdk/testing';
import { defineWorkflow, execute, getExecution, settled } from '../../workflows/test/helpers.ts';
import { approvalsFixture, caseOf, decide, expireNow, MANIFEST, person, rawClient, settledCase, until } from './helpers.ts';

const GATED = {
  name: 'refund',
  steps: [
    {
      id: 'gate', type: 'APPROVAL', title: 'Refund {{inputs.order}}', description: 'Amount {{inputs.amount}} EUR',
      payload: { order: '{{inputs.order}}', amount: '{{inputs.amount}}' }, approvers: { roles: ['finance'] }, timeout_seconds: 3600, output_key: 'approval',
    },
    { id: 'check', type: 'CONDITION', condition: { field: 'approval.status', operator: '==', value: 'approved' }, then_step: 'pay', else_step: 'skip' },
    { id: 'pay', type: 'ACTION', handler: 'log', arguments: { message: 'paying {{inputs.order}}' }, output_key: 'paid', end: true },
    { id: 'skip', type: 'ACTION', handler: 'log', arguments: { message: 'not paying' }, output_key: 'skipped' },
  ],
};

/** The case an execution's gate opened (through the REST list, as an admin). */
async function caseOfExecution(tp: Awaited<ReturnType<typeof approvalsFixture>>['tp'], token: string, executionId: string) {
  return until(async () => {
    const listed = await tp.request({ url: '/api/approvals?source_type=workflow', token });
    return listed.body.items.find((c: { source: { execution_id: string } }) => c.source.execution_id === executionId);
  }, `the case of execution ${executionId}`);
}

t.test('approved and rejected: the execution waits for the case, then branches on its status', async (t) => {
  const { tp, admin } = await approvalsFixture(t);
  const ann = await person(tp, 'acme', 'ann', ['finance']);
  await defineWorkflow(tp, admin, GATED);

  const id = await execute(tp, admin, 'refund', { order: 'A-7', amount: 120 });
  const opened = await caseOfExecution(tp, admin, id);
  t.match(opened, {
    title: 'Refund A-7', description: 'Amount 120 EUR', payload: { order: 'A-7', amount: 120 }, status: 'pending',
    source: { type: 'workflow', execution_id: id, step_id: 'gate' }, approvers: { roles: ['finance'] }, requested_by: 'workflows',
  });
  const waiting = await getExecution(tp, admin, id);
  t.match(waiting, { status: 'waiting', current_step: 'gate', pending_events: ['approval.resolved'], steps: [{ step_id: 'gate', type: 'APPROVAL', status: 'waiting' }] });
  const pending = await tp.request({ url: `/api/admin/executions/${id}/pending-events`, token: admin });
  t.same(pending.body.pending_events, ['approval.resolved']);

  t.equal((await decide(tp, ann, opened.id, 'approve', 'ok')).status, 200);
  const done = await settled(tp, admin, id);
  t.equal(done.status, 'completed');
  t.match(done.context.approval, { case_id: opened.id, status: 'approved', timed_out: false, decisions: [{ by: 'ann', decision: 'approve', comment: 'ok' }] });
  t.ok(done.context.paid !== undefined && done.context.skipped === undefined, 'the approved branch ran');
  t.match(done.steps, [{ step_id: 'gate', type: 'APPROVAL', status: 'completed' }, { step_id: 'check', status: 'then' }, { step_id: 'pay' }]);

  const second = await execute(tp, admin, 'refund', { order: 'B-1', amount: 9000 });
  const other = await caseOfExecution(tp, admin, second);
  await decide(tp, ann, other.id, 'reject', 'too much');
  const rejected = await settled(tp, admin, second);
  t.equal(rejected.context.approval.status, 'rejected');
  t.ok(rejected.context.skipped !== undefined && rejected.context.paid === undefined, 'the else branch ran');
});

t.test('expired (the clock driven by the keyed job): the execution goes on with timed_out: true', async (t) => {
  const { tp, admin } = await approvalsFixture(t);
  const db = await rawClient(t, tp.databaseUrl);
  await defineWorkflow(tp, admin, GATED);
  const id = await execute(tp, admin, 'refund', { order: 'C-3', amount: 5 });
  const opened = await caseOfExecution(tp, admin, id);
  await expireNow(db, opened.id);
  const done = await settled(tp, admin, id);
  t.match(done.context.approval, { case_id: opened.id, status: 'expired', timed_out: true, decisions: [] });
  t.match(done.steps[0], { step_id: 'gate', status: 'timeout' });
  t.ok(done.context.skipped !== undefined);
});

t.test('cancelling the execution cancels its open case', async (t) => {
  const { tp, admin } = await approvalsFixture(t);
  const ann = await person(tp, 'acme', 'ann', ['finance']);
  await defineWorkflow(tp, admin, GATED);
  const id = await execute(tp, admin, 'refund', { order: 'D-4', amount: 1 });
  const opened = await caseOfExecution(tp, admin, id);
  const cancelled = await tp.request({ method: 'POST', url: `/api/admin/executions/${id}/cancel`, token: admin });
  t.equal(cancelled.status, 200);
  t.equal(cancelled.body.status, 'cancelled');
  t.equal((await caseOf(tp, admin, opened.id)).status, 'cancelled', 'in the same transaction');
  t.equal((await decide(tp, ann, opened.id, 'approve')).status, 409, 'nobody decides a cancelled case');
});

t.test('a case pending across a restart: decided through a second instance, the execution completes', async (t) => {
  const first = await approvalsFixture(t);
  const ann = await person(first.tp, 'acme', 'ann', ['finance']);
  await defineWorkflow(first.tp, first.admin, GATED);
  const id = await execute(first.tp, first.admin, 'refund', { order: 'E-5', amount: 2 });
  const opened = await caseOfExecution(first.tp, first.admin, id);
  await first.tp.stop();

  const { ADMIN_TOKEN, PLATFORM_MASTER_KEY, SERVICE_JWT_SECRET } = first.tp.env;
  const second = await startTestPlatform(t, {
    listen: true, databaseUrl: first.tp.databaseUrl, env: { PLATFORM_MANIFEST: MANIFEST, ADMIN_TOKEN, PLATFORM_MASTER_KEY, SERVICE_JWT_SECRET },
  });
  t.equal((await decide(second, ann, opened.id, 'approve')).status, 200);
  const done = await settled(second, first.admin, id);
  t.equal(done.status, 'completed');
  t.equal(done.context.approval.status, 'approved');
});

t.test('a trigger on approval.resolved starts a workflow with the case in its inputs', async (t) => {
  const { tp, admin } = await approvalsFixture(t);
  const ann = await person(tp, 'acme', 'ann', ['finance']);
  await defineWorkflow(tp, admin, { name: 'announce', steps: [{ id: 'say', type: 'ACTION', handler: 'log', arguments: { message: 'case {{inputs.case_id}} {{inputs.status}}' } }] });
  const trigger = await tp.request({
    method: 'POST', url: '/api/admin/triggers', token: admin,
    payload: {
      name: 'on-approval', event_type: 'approval.resolved', target_name: 'announce', event_filter: { 'data.status': ['approved'] },
      input_mapping: { case_id: '{{event.data.case_id}}', status: '{{event.data.status}}' },
    },
  });
  t.equal(trigger.status, 201, JSON.stringify(trigger.body));
  const opened = await tp.request({ method: 'POST', url: '/api/approvals', token: admin, payload: { title: 'Hire', approvers: { roles: ['finance'] } } });
  await decide(tp, ann, opened.body.id, 'approve');
  await settledCase(tp, admin, opened.body.id);
  const started = await until(async () => {
    const listed = await tp.request({ url: '/api/admin/executions?workflow=announce', token: admin });
    return listed.body.items[0];
  }, 'the triggered execution');
  const run = await settled(tp, admin, started.execution_id);
  t.equal(run.status, 'completed');
  t.match(run.context.inputs, { case_id: opened.body.id, status: 'approved' });
});

t.test('request_approval in a workflow ACTION opens a case and returns its id without waiting', async (t) => {
  const { tp, admin } = await approvalsFixture(t);
  await defineWorkflow(tp, admin, {
    name: 'ask-and-go',
    steps: [{ id: 'ask', type: 'ACTION', handler: 'request_approval', arguments: { title: 'FYI {{inputs.what}}', approvers: { roles: ['admin'] } }, output_key: 'asked' }],
  });
  const id = await execute(tp, admin, 'ask-and-go', { what: 'deploy' });
  const done = await settled(tp, admin, id);
  t.equal(done.status, 'completed', 'the ACTION does not block');
  t.equal(done.context.asked.status, 'pending');
  // Requested by the person the execution acts for: the admin who started it.
  t.match(await caseOf(tp, admin, done.context.asked.case_id), {
    title: 'FYI deploy', status: 'pending', source: { type: 'workflow', execution_id: id, step_id: 'ask' }, requested_by: 'acme-admin',
  });
});

t.test('without the approvals plugin an APPROVAL step is refused, naming the plugin', async (t) => {
  const tp = await startTestPlatform(t, { env: { PLATFORM_MANIFEST: 'test/fixtures/manifests/workflows.yaml' } });
  const { token } = await tenantWithAdmin(tp, 'acme');
  const refused = await tp.request({ method: 'POST', url: '/api/admin/workflows', token, payload: GATED });
  t.equal(refused.status, 400);
  t.equal(refused.body.code, 'INVALID_DEFINITION');
  t.match(refused.body.errors, ['step "gate": APPROVAL steps need the approvals plugin, which this deployment does not load']);
});
