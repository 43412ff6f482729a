// The workflows CLI: `workflows list` and `workflows execute`, run as a child
// process against the platform's database; the running server executes.
import t from 'tap';
import { runCli, tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';
import { defineWorkflow, MANIFEST, settled, startWorkflowsPlatform } from './helpers.ts';

const cli = (tp: TestPlatform, args: string[]) => runCli(args, { platform: tp, env: { PLATFORM_MANIFEST: MANIFEST } });

t.test('workflows list and execute from the CLI', async (t) => {
  const tp = await startWorkflowsPlatform(t);
  const a = await tenantWithAdmin(tp, 'wf-cli');
  await defineWorkflow(tp, a.token, {
    name: 'greet', description: 'Says hello',
    steps: [{ id: 'say', type: 'ACTION', handler: 'log', arguments: { message: 'hello {{inputs.who}}' }, output_key: 'said' }],
  });

  const list = await cli(tp, ['workflows', 'list', '--tenant', 'wf-cli', '--json']);
  t.equal(list.code, 0, list.stderr);
  t.match(JSON.parse(list.stdout), { total: 1, items: [{ name: 'greet', description: 'Says hello', version: 1 }] });

  const run = await cli(tp, ['workflows', 'execute', 'greet', '--tenant', 'wf-cli', '--inputs', '{"who": "cli"}', '--json']);
  t.equal(run.code, 0, run.stderr);
  const started = JSON.parse(run.stdout);
  t.match(started, { execution_id: /^[0-9a-f-]{36}$/, workflow_name: 'greet', status: 'running' });
  const done = await settled(tp, a.token, started.execution_id);
  t.equal(done.status, 'completed', 'the server\'s workers ran what the CLI enqueued');
  t.same(done.context, { inputs: { who: 'cli' }, said: { message: 'hello cli', level: 'info' } });
  t.same(done.origin, { type: 'api', id: 'cli', acting_for: { kind: 'super_admin' } }, 'the CLI acts as the operator');

  const badInputs = await cli(tp, ['workflows', 'execute', 'greet', '--tenant', 'wf-cli', '--inputs', '[1]']);
  t.equal(badInputs.code, 1);
  t.match(badInputs.stderr, /--inputs must be a JSON object/);
  const unknown = await cli(tp, ['workflows', 'execute', 'nope', '--tenant', 'wf-cli']);
  t.equal(unknown.code, 1);
  t.match(unknown.stderr, /Workflow not found: nope \(WORKFLOW_NOT_FOUND\)/);
});
