// WAIT steps: a signal that matches resolves the
// wait; one that does not is buffered and offered to later waits; a signal may
// come before its wait; a timeout resolves it with a timeout result; a WAIT
// without event_type is a pure timer. pending-events tells what it waits for.
import t from 'tap';
import { sql } from 'kysely';
import { tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';
import { defineWorkflow, execute, getExecution, settled, startWorkflowsPlatform, until, waitStep } from './helpers.ts';

const unixSeconds = () => Math.floor(Date.now() / 1000);

async function pendingEvents(tp: TestPlatform, token: string, id: string) {
  const response = await tp.request({ url: `/api/admin/executions/${id}/pending-events`, token });
  if (response.status !== 200) throw new Error(`pending-events: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

const timerJobs = (tp: TestPlatform, id: string) =>
  sql<{ n: number }>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key LIKE ${`wf-timeout:${id}:%`}`
    .execute(tp.platform.core.db).then((r) => r.rows[0].n);

t.test('waits and signals', async (t) => {
  const tp = await startWorkflowsPlatform(t);
  const a = await tenantWithAdmin(tp, 'wf-waits');
  const api = tp.platform.server.plugins.workflows.api;
  const signal = (id: string, event_type: string, data: Record<string, unknown>, sender = 'webhook') =>
    api.signal('wf-waits', id, { event_type, data, sender });

  t.test('a matching signal resolves the wait with the spec\'s result', async (t) => {
    await defineWorkflow(tp, a.token, {
      name: 'approve',
      steps: [
        waitStep('approval', { event_type: 'approval.granted', event_filter: { approved: [true] }, timeout_seconds: 600, output_key: 'approval' }),
        { id: 'after', type: 'ACTION', handler: 'log', arguments: { message: 'approved by {{approval.output.by}}' }, output_key: 'after' },
      ],
    });
    const id = await execute(tp, a.token, 'approve');
    const waiting = await settled(tp, a.token, id, ['waiting']);
    t.match(waiting, { status: 'waiting', current_step: 'approval', pending_events: ['approval.granted'], wait: { step_id: 'approval', event_type: 'approval.granted' } });
    t.same(await pendingEvents(tp, a.token, id), { workflow_id: id, pending_events: ['approval.granted'] });
    t.equal(await timerJobs(tp, id), 1);

    const before = unixSeconds();
    t.equal(await signal(id, 'approval.granted', { approved: true, by: 'ann' }), true, 'delivered');
    const after = unixSeconds();
    const done = await settled(tp, a.token, id);
    t.equal(done.status, 'completed');
    t.same(Object.keys(done.context.approval).sort(), ['event_type', 'output', 'received_at', 'sender', 'source']);
    t.same(done.context.approval, {
      output: { approved: true, by: 'ann' }, event_type: 'approval.granted', source: 'signal', sender: 'webhook',
      received_at: done.context.approval.received_at,
    });
    t.match(done.context.approval.received_at, /^\d+$/, 'received_at is Unix seconds as a string');
    const received = Number(done.context.approval.received_at);
    t.ok(received >= before && received <= after, 'received when it was sent');
    t.equal(done.context.after.message, 'approved by ann', 'later steps read the wait result');
    t.match(done.steps, [{ step_id: 'approval', type: 'WAIT', status: 'signal' }, { step_id: 'after', status: 'completed' }]);
    t.same(await pendingEvents(tp, a.token, id), { workflow_id: id, pending_events: [] }, 'nothing pending after');
    t.equal(await timerJobs(tp, id), 0, 'the timeout job was removed');
    t.equal(await signal(id, 'approval.granted', { approved: true }), false, 'an ended execution takes no signal');
  });

  t.test('a non-matching signal is buffered, then consumed by a later wait', async (t) => {
    await defineWorkflow(tp, a.token, {
      name: 'two-waits',
      steps: [
        waitStep('yes', { event_type: 'vote', event_filter: { choice: ['yes'] }, timeout_seconds: 600, output_key: 'yes' }),
        waitStep('no', { event_type: 'vote', event_filter: { choice: ['no'] }, timeout_seconds: 600, output_key: 'no' }),
      ],
    });
    const id = await execute(tp, a.token, 'two-waits');
    await settled(tp, a.token, id, ['waiting']);
    t.equal(await signal(id, 'vote', { choice: 'no', n: 1 }, 'api'), true);
    t.equal(await signal(id, 'ballot', { choice: 'yes' }, 'api'), true, 'another type is delivered (and buffered) too');
    const still = await getExecution(tp, a.token, id);
    t.match(still, { status: 'waiting', current_step: 'yes', buffered_signals: 2 }, 'neither matched: both buffered');
    t.same(still.pending_events, ['vote']);

    t.equal(await signal(id, 'vote', { choice: 'yes', n: 2 }, 'api'), true);
    const done = await settled(tp, a.token, id);
    t.equal(done.status, 'completed', 'the second wait took the buffered signal at once');
    t.match(done.context.yes, { output: { choice: 'yes', n: 2 }, source: 'signal', sender: 'api' });
    t.match(done.context.no, { output: { choice: 'no', n: 1 }, source: 'signal', event_type: 'vote' });
    t.ok(Number(done.context.no.received_at) <= Number(done.context.yes.received_at), 'the buffered signal keeps its own receipt time');
    t.equal(done.buffered_signals, 1, 'the unrelated signal stays buffered');
    t.match(done.steps, [{ step_id: 'yes', status: 'signal' }, { step_id: 'no', status: 'signal', duration_ms: 0 }]);
  });

  t.test('a signal that arrives before its wait is kept for it', async (t) => {
    await defineWorkflow(tp, a.token, {
      name: 'early',
      steps: [
        { id: 'work', type: 'ACTION', handler: 'probe_record', arguments: { label: 'early', sleep_ms: 800 } },
        waitStep('ready', { event_type: 'job.ready', timeout_seconds: 600, output_key: 'ready' }),
      ],
    });
    const id = await execute(tp, a.token, 'early');
    await until(async () => (await getExecution(tp, a.token, id)).current_step === 'work', 'the action to start');
    t.equal(await signal(id, 'job.ready', { at: 'early' }), true, 'delivered while the action runs');
    const done = await settled(tp, a.token, id);
    t.equal(done.status, 'completed');
    t.match(done.context.ready, { output: { at: 'early' }, source: 'signal' });
    t.match(done.steps, [{ step_id: 'work', status: 'completed' }, { step_id: 'ready', status: 'signal' }]);

    // Even before the start job has run: the signal starts the execution and is buffered.
    const racing = await execute(tp, a.token, 'early');
    t.equal(await signal(racing, 'job.ready', { at: 'start' }), true);
    t.match((await settled(tp, a.token, racing)).context.ready, { output: { at: 'start' } });
  });

  t.test('a wait with no signal times out with the timeout result; a pattern matches across dots', async (t) => {
    await defineWorkflow(tp, a.token, {
      name: 'deadline',
      steps: [
        waitStep('reply', { event_type: 'reply.received', timeout_seconds: 1, output_key: 'reply' }),
        { id: 'check', type: 'CONDITION', condition: { field: 'reply.timed_out', operator: '==', value: true }, then_step: 'late', else_step: 'ok' },
        { id: 'late', type: 'ACTION', handler: 'log', arguments: { message: 'no reply' }, output_key: 'late', next: 'end' },
        { id: 'ok', type: 'ACTION', handler: 'log', arguments: { message: 'replied' }, output_key: 'ok' },
        { id: 'end', type: 'ACTION', handler: 'log', arguments: { message: 'end' } },
      ],
    });
    const id = await execute(tp, a.token, 'deadline');
    const done = await settled(tp, a.token, id);
    t.equal(done.status, 'completed');
    t.same(done.context.reply, { output: null, event_type: 'reply.received', source: 'timeout', timed_out: true });
    t.ok(done.context.late && !done.context.ok, 'the workflow branched on timed_out');
    const wait = done.steps[0];
    t.match(wait, { step_id: 'reply', status: 'timeout' });
    t.ok(wait.duration_ms >= 1000, `waited its timeout (${wait.duration_ms} ms)`);
    t.same(await pendingEvents(tp, a.token, id), { workflow_id: id, pending_events: [] });

    await defineWorkflow(tp, a.token, { name: 'pattern', steps: [waitStep('any', { event_type: 'order.*', timeout_seconds: 600, output_key: 'any' })] });
    const patterned = await execute(tp, a.token, 'pattern');
    await settled(tp, a.token, patterned, ['waiting']);
    t.same((await pendingEvents(tp, a.token, patterned)).pending_events, ['order.*']);
    await signal(patterned, 'order.shipped.late', { id: 1 });
    t.match((await settled(tp, a.token, patterned)).context.any, { event_type: 'order.shipped.late', output: { id: 1 } });
  });

  t.test('a WAIT without event_type is a pure timer', async (t) => {
    await defineWorkflow(tp, a.token, {
      name: 'pause',
      steps: [waitStep('pause', { timeout_seconds: 1, output_key: 'pause' }), { id: 'then', type: 'ACTION', handler: 'log', arguments: { message: 'after the pause' } }],
    });
    const id = await execute(tp, a.token, 'pause');
    const waiting = await settled(tp, a.token, id, ['waiting', 'completed']);
    t.equal(waiting.status, 'waiting');
    t.same(await pendingEvents(tp, a.token, id), { workflow_id: id, pending_events: [] }, 'a timer waits for no event');
    t.equal(await signal(id, 'anything', {}), true, 'a signal is taken (and buffered), not used to end the timer');
    const done = await settled(tp, a.token, id);
    t.equal(done.status, 'completed');
    t.same(done.context.pause, { output: null, event_type: null, source: 'timeout', timed_out: true });
    t.equal(done.buffered_signals, 1);
  });

  t.test('pending-events of an unknown or malformed id', async (t) => {
    const unknown = await tp.request({ url: '/api/admin/executions/00000000-0000-4000-8000-000000000000/pending-events', token: a.token });
    t.equal(unknown.status, 404);
    const malformed = await tp.request({ url: '/api/admin/executions/nope/pending-events', token: a.token });
    t.equal(malformed.status, 400);
  });
});
