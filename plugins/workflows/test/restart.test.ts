// A restart in the middle of a wait: executions are rows and their timers are
// jobs, so a new process on the same database carries on where the old one
// stood, and a timeout that fell due while no process ran fires on restart.
import t from 'tap';
import { tenantWithAdmin } from 'agent-platform/sdk/testing';
import { defineWorkflow, execute, getExecution, probeCalls, recordedEvents, settled, startWorkflowsPlatform, waitStep } from './helpers.ts';

t.test('executions resume after a restart', async (t) => {
  const first = await startWorkflowsPlatform(t);
  const a = await tenantWithAdmin(first, 'wf-restart');
  await defineWorkflow(first, a.token, {
    name: 'hold',
    steps: [
      { id: 'before', type: 'ACTION', handler: 'probe_record', arguments: { label: 'restart-before' }, output_key: 'before' },
      waitStep('resume', { event_type: 'resume', timeout_seconds: 600, output_key: 'resume' }),
      { id: 'after', type: 'ACTION', handler: 'probe_record', arguments: { label: 'restart-after' }, output_key: 'after' },
    ],
  });
  await defineWorkflow(first, a.token, { name: 'short', steps: [waitStep('short', { event_type: 'never', timeout_seconds: 1, output_key: 'short' })] });
  await defineWorkflow(first, a.token, {
    name: 'busy',
    steps: [
      { id: 'slow', type: 'ACTION', handler: 'probe_record', arguments: { label: 'restart-slow', sleep_ms: 1500 }, output_key: 'slow' },
      waitStep('resume', { event_type: 'resume', timeout_seconds: 600 }),
    ],
  });

  const waiting = await execute(first, a.token, 'hold');
  await settled(first, a.token, waiting, ['waiting']);
  const timing = await execute(first, a.token, 'short');
  await settled(first, a.token, timing, ['waiting']);
  const busy = await execute(first, a.token, 'busy');
  await settled(first, a.token, busy, ['running']);
  await first.stop(); // drains the slow action in flight, then stops
  await new Promise((resolve) => setTimeout(resolve, 1500)); // the short wait falls due while nothing runs

  const second = await startWorkflowsPlatform(t, { databaseUrl: first.databaseUrl });
  const token = (await second.request({ method: 'POST', url: '/api/admin/users/wf-restart-admin/tokens', token: second.adminToken })).body.access_token;
  const stood = await getExecution(second, token, waiting);
  t.match(stood, { status: 'waiting', current_step: 'resume', pending_events: ['resume'] }, 'the wait survived the restart');

  t.equal(await second.platform.server.plugins.workflows.api.signal('wf-restart', waiting, { event_type: 'resume', data: { go: true }, sender: 'webhook' }), true);
  const done = await settled(second, token, waiting);
  t.equal(done.status, 'completed');
  t.match(done.context, { resume: { output: { go: true }, source: 'signal' }, after: { label: 'restart-after' } });
  t.same(done.steps.map((s: { step_id: string }) => s.step_id), ['before', 'resume', 'after']);
  t.equal((await probeCalls(second, 'restart-before')).length, 1, 'no step ran twice');
  t.equal((await probeCalls(second, 'restart-after')).length, 1);

  const timedOut = await settled(second, token, timing);
  t.same(timedOut.context.short, { output: null, event_type: 'never', source: 'timeout', timed_out: true }, 'the overdue timeout fired after the restart');

  const resumed = await settled(second, token, busy, ['waiting']);
  t.match(resumed.steps, [{ step_id: 'slow', status: 'completed' }, { step_id: 'resume', status: 'waiting' }], 'the action in flight at shutdown finished');
  t.equal((await probeCalls(second, 'restart-slow')).length, 1, 'and was not run again');

  const completed = await recordedEvents(second, { tenant: 'wf-restart', type: 'workflow.completed' });
  t.same(completed.map((e) => e.data.execution_id).sort(), [waiting, timing].sort());
});
