// The engine's test cases, written once with node:assert (built into Node and
// Deno) and run by both: engine.test.ts (node-tap) and engine.deno.ts (deno test).
import assert from 'node:assert/strict';
import { advance, pendingEvents, validateDefinition } from '../../../workflows/engine/index.ts';
import type { EngineInput, ExecutionState, WorkflowDefinition } from '../../../workflows/engine/index.ts';

export interface EngineCase {
  name: string;
  fn: () => void;
}

const T0 = 1_700_000_000_000;

function definition(steps: unknown[]): WorkflowDefinition {
  const result = validateDefinition({ name: 'test-flow', steps });
  if (!result.ok) throw new Error(result.errors.join('; '));
  return result.definition;
}

/** Feeds inputs in order, returning every intermediate result. */
function drive(def: WorkflowDefinition, inputs: EngineInput[]) {
  let state: ExecutionState | null = null;
  return inputs.map((input) => {
    const result = advance(def, state, input);
    state = result.state;
    return result;
  });
}

const signal = (event_type: string, data: Record<string, unknown>, now: number, sender = 'webhook') =>
  ({ kind: 'signal', signal: { event_type, data, sender, received_at: now }, now }) as const;

export const cases: EngineCase[] = [
  {
    name: 'ACTION steps run in order with templates that keep JSON types',
    fn() {
      const def = definition([
        { id: 'fetch', type: 'ACTION', handler: 'http_request', arguments: { url: 'https://x.test/{{inputs.id}}', retries: '{{inputs.retries}}' }, output_key: 'page' },
        { id: 'note', type: 'ACTION', handler: 'log', arguments: { message: 'got {{page.status}}', body: '{{page.body}}', missing: '{{page.nope}}' } },
      ]);
      const [started, fetched, logged] = drive(def, [
        { kind: 'start', inputs: { id: 7, retries: 3 }, now: T0 },
        { kind: 'step_result', step_id: 'fetch', ok: true, output: { status: 200, body: { a: [1] } }, now: T0 + 5 },
        { kind: 'step_result', step_id: 'note', ok: true, output: null, now: T0 + 9 },
      ]);
      assert.deepEqual(started.commands, [{ kind: 'run_action', step_id: 'fetch', handler: 'http_request', arguments: { url: 'https://x.test/7', retries: 3 } }]);
      assert.equal(started.state.status, 'running');
      assert.deepEqual(fetched.commands, [{ kind: 'run_action', step_id: 'note', handler: 'log', arguments: { message: 'got 200', body: { a: [1] }, missing: null } }]);
      assert.equal(logged.state.status, 'completed');
      assert.deepEqual(logged.commands, [{ kind: 'complete', context: { inputs: { id: 7, retries: 3 }, page: { status: 200, body: { a: [1] } } } }]);
      assert.deepEqual(logged.state.history.map((h) => [h.step_id, h.outcome, h.started_at, h.finished_at]), [
        ['fetch', 'completed', T0, T0 + 5], ['note', 'completed', T0 + 5, T0 + 9],
      ]);
    },
  },
  {
    name: 'a stale or duplicate step result changes nothing',
    fn() {
      const def = definition([
        { id: 'a', type: 'ACTION', handler: 'log', output_key: 'first' },
        { id: 'b', type: 'ACTION', handler: 'log' },
      ]);
      const [, afterA] = drive(def, [
        { kind: 'start', inputs: {}, now: T0 },
        { kind: 'step_result', step_id: 'a', ok: true, output: 1, now: T0 + 1 },
      ]);
      const duplicate = advance(def, afterA.state, { kind: 'step_result', step_id: 'a', ok: true, output: 2, now: T0 + 2 });
      assert.equal(duplicate.applied, false);
      assert.deepEqual(duplicate.commands, []);
      assert.equal(duplicate.state.context.first, 1);
    },
  },
  {
    name: 'a failed action fails the execution with the step named',
    fn() {
      const def = definition([{ id: 'call', type: 'ACTION', handler: 'http_request' }, { id: 'never', type: 'ACTION', handler: 'log' }]);
      const [, failed] = drive(def, [
        { kind: 'start', inputs: {}, now: T0 },
        { kind: 'step_result', step_id: 'call', ok: false, error: 'HTTP 500', now: T0 + 1 },
      ]);
      assert.equal(failed.state.status, 'failed');
      assert.deepEqual(failed.commands, [{ kind: 'fail', error: 'step "call" failed: HTTP 500', step_id: 'call' }]);
      assert.equal(failed.state.history[0].outcome, 'failed');
    },
  },
  {
    name: 'CONDITION operators and branches',
    fn() {
      const check = (operator: string, field: string, value: unknown, inputs: Record<string, unknown>) => {
        const def = definition([
          { id: 'check', type: 'CONDITION', condition: { field, operator, value }, then_step: 'yes', else_step: 'no' },
          { id: 'yes', type: 'ACTION', handler: 'log', next: 'end' },
          { id: 'no', type: 'ACTION', handler: 'log', next: 'end' },
          { id: 'end', type: 'ACTION', handler: 'log' },
        ]);
        const [started] = drive(def, [{ kind: 'start', inputs, now: T0 }]);
        return (started.commands[0] as { step_id: string }).step_id;
      };
      assert.equal(check('==', 'inputs.kind', 'pothole', { kind: 'pothole' }), 'yes');
      assert.equal(check('==', 'inputs.tags', ['a'], { tags: ['a'] }), 'yes');
      assert.equal(check('!=', 'inputs.kind', 'pothole', { kind: 'graffiti' }), 'yes');
      assert.equal(check('>', 'inputs.n', 5, { n: 6 }), 'yes');
      assert.equal(check('>', 'inputs.n', 5, { n: 5 }), 'no');
      assert.equal(check('>=', 'inputs.n', 5, { n: 5 }), 'yes');
      assert.equal(check('<', 'inputs.n', 5, { n: '4' }), 'no');
      assert.equal(check('<=', 'inputs.n', 5, { n: 5 }), 'yes');
      assert.equal(check('in', 'inputs.kind', ['a', 'b'], { kind: 'b' }), 'yes');
      assert.equal(check('in', 'inputs.kind', ['a', 'b'], { kind: 'c' }), 'no');
      assert.equal(check('contains', 'inputs.text', 'hole', { text: 'pothole' }), 'yes');
      assert.equal(check('contains', 'inputs.tags', 'x', { tags: ['x', 'y'] }), 'yes');
      assert.equal(check('exists', 'inputs.maybe', true, { maybe: 0 }), 'yes');
      assert.equal(check('exists', 'inputs.maybe', true, {}), 'no');
      assert.equal(check('exists', 'inputs.maybe', false, { maybe: null }), 'yes');
    },
  },
  {
    name: 'a CONDITION without a branch falls through; a loop of conditions fails instead of hanging',
    fn() {
      const through = definition([
        { id: 'check', type: 'CONDITION', condition: { field: 'inputs.x', operator: '==', value: 1 }, then_step: 'other' },
        { id: 'next', type: 'ACTION', handler: 'log' },
        { id: 'other', type: 'ACTION', handler: 'log' },
      ]);
      assert.equal((drive(through, [{ kind: 'start', inputs: { x: 2 }, now: T0 }])[0].commands[0] as { step_id: string }).step_id, 'next');
      const loop = definition([
        { id: 'a', type: 'CONDITION', condition: { field: 'inputs.x', operator: 'exists' }, then_step: 'b' },
        { id: 'b', type: 'CONDITION', condition: { field: 'inputs.x', operator: 'exists' }, then_step: 'a' },
      ]);
      const [looped] = drive(loop, [{ kind: 'start', inputs: { x: 1 }, now: T0 }]);
      assert.equal(looped.state.status, 'failed');
      assert.match(looped.state.error!, /loops/);
    },
  },
  {
    name: 'a branch ends at "end": true or goes on at its "next"; only one CONDITION branch runs',
    fn() {
      const def = definition([
        { id: 'check', type: 'CONDITION', condition: { field: 'inputs.ok', operator: '==', value: true }, then_step: 'yes', else_step: 'no' },
        { id: 'yes', type: 'ACTION', handler: 'log', end: true },
        { id: 'no', type: 'WAIT', handler: 'temporal:wait_for_event', timeout_seconds: 5, next: 'after' },
        { id: 'skipped', type: 'ACTION', handler: 'log' },
        { id: 'after', type: 'ACTION', handler: 'log', end: false },
      ]);
      const ran = (inputs: Record<string, unknown>, feed: (started: { commands: unknown[] }) => EngineInput[]) => {
        const [started] = drive(def, [{ kind: 'start', inputs, now: T0 }]);
        const results = drive(def, [{ kind: 'start', inputs, now: T0 }, ...feed(started)]);
        const last = results.at(-1)!;
        return { state: last.state, commands: results.flatMap((r) => r.commands), steps: last.state.history.map((h) => `${h.step_id}:${h.outcome}`) };
      };
      const yes = ran({ ok: true }, () => [{ kind: 'step_result', step_id: 'yes', ok: true, output: null, now: T0 + 1 }]);
      assert.equal(yes.state.status, 'completed');
      assert.deepEqual(yes.steps, ['check:then', 'yes:completed'], 'the then branch ends at its end: true; "no" never runs');
      assert.equal(yes.commands.filter((c) => (c as { kind: string }).kind === 'run_action').length, 1);

      const no = ran({ ok: false }, () => [
        { kind: 'timeout', step_id: 'no', now: T0 + 5000 },
        { kind: 'step_result', step_id: 'after', ok: true, output: null, now: T0 + 5001 },
      ]);
      assert.equal(no.state.status, 'completed');
      assert.deepEqual(no.steps, ['check:else', 'no:timeout', 'after:completed'], 'a WAIT\'s next skips "skipped"; end: false is list order (the last step)');
    },
  },
  {
    name: 'validation refuses a CONDITION branch that runs on into the other branch\'s target, naming the steps and the fix',
    fn() {
      const cond = { id: 'check', type: 'CONDITION', condition: { field: 'inputs.ok', operator: '==', value: true }, then_step: 'yes', else_step: 'no' };
      const errorsOf = (steps: unknown[]) => {
        const result = validateDefinition({ name: 'test-flow', steps });
        return result.ok ? [] : result.errors;
      };
      const fallsThrough = errorsOf([cond, { id: 'yes', type: 'ACTION', handler: 'log' }, { id: 'no', type: 'ACTION', handler: 'log' }]);
      assert.equal(fallsThrough.length, 1);
      assert.match(fallsThrough[0], /^step "check": the then_step branch \("yes"\) runs on into the else_step target "no" because "yes" is followed by "no" in list order/);
      assert.match(fallsThrough[0], /give step "yes" an explicit "next" \(the step after the branch\) or "end": true/);

      // Through a chain: yes → (next) mid, and mid is followed by "no" in the list.
      const viaNext = errorsOf([
        cond,
        { id: 'yes', type: 'ACTION', handler: 'log', next: 'mid' },
        { id: 'mid', type: 'WAIT', handler: 'temporal:wait_for_event' },
        { id: 'no', type: 'ACTION', handler: 'log' },
      ]);
      assert.match(viaNext.join('\n'), /then_step branch \("yes"\) runs on into the else_step target "no" because "mid" is followed by "no"/);

      // The else branch running on into the then target is the same mistake.
      const elseFirst = errorsOf([cond, { id: 'no', type: 'ACTION', handler: 'log' }, { id: 'yes', type: 'ACTION', handler: 'log' }]);
      assert.match(elseFirst.join('\n'), /^step "check": the else_step branch \("no"\) runs on into the then_step target "yes"/);

      // Explicit successors are what the author meant; a left-out branch continues in list order by design.
      assert.deepEqual(errorsOf([cond, { id: 'yes', type: 'ACTION', handler: 'log', next: 'no' }, { id: 'no', type: 'ACTION', handler: 'log' }]), []);
      assert.deepEqual(errorsOf([cond, { id: 'yes', type: 'ACTION', handler: 'log', end: true }, { id: 'no', type: 'ACTION', handler: 'log' }]), []);
      assert.deepEqual(errorsOf([
        { id: 'check', type: 'CONDITION', condition: { field: 'inputs.ok', operator: 'exists' }, else_step: 'done' },
        { id: 'work', type: 'ACTION', handler: 'log' },
        { id: 'done', type: 'ACTION', handler: 'log' },
      ]), []);
      // A branch that loops on itself is followed once, not forever.
      assert.deepEqual(errorsOf([cond, { id: 'yes', type: 'ACTION', handler: 'log', next: 'yes' }, { id: 'no', type: 'ACTION', handler: 'log' }]), []);

      const misuse = errorsOf([
        { id: 'a', type: 'ACTION', handler: 'log', next: null },
        { id: 'b', type: 'ACTION', handler: 'log', next: 'a', end: true },
        { id: 'c', type: 'WAIT', handler: 'temporal:wait_for_event', end: 'yes' },
        { id: 'd', type: 'CONDITION', condition: { field: 'x', operator: 'exists' }, end: true },
      ]);
      for (const expected of [
        /^step "a": next must name a step of this workflow \(to end the workflow after this step, write "end": true\)/,
        /^step "b": "next" and "end": true exclude each other/,
        /^step "c": end must be true or false/,
        /^step "d": unknown field "end" for a CONDITION step/,
      ]) assert.ok(misuse.some((error) => expected.test(error)), `expected ${expected} in ${JSON.stringify(misuse)}`);
    },
  },
  {
    name: 'a WAIT resolved by a matching signal stores the 2.8 result and cancels its timeout',
    fn() {
      const def = definition([
        { id: 'wait', type: 'WAIT', handler: 'temporal:wait_for_event', event_type: 'approval.resolved', event_filter: { decision: ['approved'] }, timeout_seconds: 120, output_key: 'approval' },
        { id: 'after', type: 'ACTION', handler: 'log', arguments: { who: '{{approval.output.by}}' } },
      ]);
      const [waiting, resolved] = drive(def, [
        { kind: 'start', inputs: {}, now: T0 },
        signal('approval.resolved', { decision: 'approved', by: 'ana' }, T0 + 30_500),
      ]);
      assert.deepEqual(waiting.commands, [{ kind: 'wait', step_id: 'wait', event_type: 'approval.resolved', until: T0 + 120_000 }]);
      assert.equal(waiting.state.status, 'waiting');
      assert.deepEqual(pendingEvents(waiting.state), ['approval.resolved']);
      assert.deepEqual(resolved.state.context.approval, {
        output: { decision: 'approved', by: 'ana' }, event_type: 'approval.resolved', source: 'signal', sender: 'webhook',
        received_at: String(Math.floor((T0 + 30_500) / 1000)),
      });
      assert.deepEqual(resolved.commands, [
        { kind: 'cancel_timeout', step_id: 'wait' },
        { kind: 'run_action', step_id: 'after', handler: 'log', arguments: { who: 'ana' } },
      ]);
      assert.deepEqual(pendingEvents(resolved.state), []);
    },
  },
  {
    name: 'a non-matching signal is buffered and offered to a later wait',
    fn() {
      const def = definition([
        { id: 'first', type: 'WAIT', handler: 'temporal:wait_for_event', event_type: 'payment.received', output_key: 'payment' },
        { id: 'second', type: 'WAIT', handler: 'temporal:wait_for_event', event_type: 'parcel.shipped', event_filter: { carrier: [{ prefix: 'DH' }] }, output_key: 'parcel' },
      ]);
      const [, buffered, paid] = drive(def, [
        { kind: 'start', inputs: {}, now: T0 },
        signal('parcel.shipped', { carrier: 'DHL' }, T0 + 1000),
        signal('payment.received', { amount: 12 }, T0 + 2000),
      ]);
      assert.equal(buffered.state.status, 'waiting', 'still waiting for the payment');
      assert.equal(buffered.state.buffered.length, 1);
      assert.deepEqual(buffered.commands, []);
      assert.equal(paid.state.status, 'completed', 'the buffered parcel signal resolved the second wait at once');
      assert.equal((paid.state.context.parcel as { received_at: string }).received_at, String(Math.floor((T0 + 1000) / 1000)));
      assert.deepEqual(paid.state.buffered, []);
    },
  },
  {
    name: 'a signal that arrives before its wait starts is kept',
    fn() {
      const def = definition([
        { id: 'work', type: 'ACTION', handler: 'log' },
        { id: 'wait', type: 'WAIT', handler: 'temporal:wait_for_event', event_type: 'doc.signed', output_key: 'signed' },
      ]);
      const [, early, done] = drive(def, [
        { kind: 'start', inputs: {}, now: T0 },
        signal('doc.signed', { id: 1 }, T0 + 10),
        { kind: 'step_result', step_id: 'work', ok: true, output: null, now: T0 + 20 },
      ]);
      assert.equal(early.state.status, 'running');
      assert.equal(early.state.buffered.length, 1);
      assert.equal(done.state.status, 'completed');
      assert.equal((done.state.context.signed as { source: string }).source, 'signal');
    },
  },
  {
    name: 'a wait times out with the 2.8 timeout result; a late timeout or signal changes nothing',
    fn() {
      const def = definition([
        { id: 'wait', type: 'WAIT', handler: 'temporal:wait_for_event', event_type: 'x.y', output_key: 'r' },
        { id: 'after', type: 'ACTION', handler: 'log' },
      ]);
      const [waiting, timedOut] = drive(def, [{ kind: 'start', inputs: {}, now: T0 }, { kind: 'timeout', step_id: 'wait', now: T0 + 60_000 }]);
      assert.deepEqual(waiting.commands, [{ kind: 'wait', step_id: 'wait', event_type: 'x.y', until: T0 + 60_000 }], 'default timeout 60 s');
      assert.deepEqual(timedOut.state.context.r, { output: null, event_type: 'x.y', source: 'timeout', timed_out: true });
      assert.equal(timedOut.state.status, 'running');
      const again = advance(def, timedOut.state, { kind: 'timeout', step_id: 'wait', now: T0 + 61_000 });
      assert.equal(again.applied, false);
    },
  },
  {
    name: 'a pure timer takes no signals and resolves at its timeout',
    fn() {
      const def = definition([{ id: 'sleep', type: 'WAIT', handler: 'temporal:wait_for_event', timeout_seconds: 5, output_key: 'slept' }]);
      const [waiting, signalled, done] = drive(def, [
        { kind: 'start', inputs: {}, now: T0 },
        signal('anything', {}, T0 + 1),
        { kind: 'timeout', step_id: 'sleep', now: T0 + 5000 },
      ]);
      assert.deepEqual(waiting.commands, [{ kind: 'wait', step_id: 'sleep', until: T0 + 5000 }]);
      assert.deepEqual(pendingEvents(waiting.state), []);
      assert.equal(signalled.state.status, 'waiting');
      assert.equal(done.state.status, 'completed');
      assert.deepEqual(done.state.context.slept, { output: null, event_type: null, source: 'timeout', timed_out: true });
    },
  },
  {
    name: 'cancel ends a waiting execution and voids its timeout; finished executions ignore input',
    fn() {
      const def = definition([{ id: 'wait', type: 'WAIT', handler: 'temporal:wait_for_event', event_type: 'a.b' }]);
      const [, cancelled] = drive(def, [{ kind: 'start', inputs: {}, now: T0 }, { kind: 'cancel', now: T0 + 1 }]);
      assert.equal(cancelled.state.status, 'cancelled');
      assert.deepEqual(cancelled.commands, [{ kind: 'cancel_timeout', step_id: 'wait' }]);
      assert.equal(advance(def, cancelled.state, signal('a.b', {}, T0 + 2)).applied, false);
    },
  },
  {
    name: 'cancel of a running action voids its run_action; its late result changes nothing',
    fn() {
      const def = definition([{ id: 'call', type: 'ACTION', handler: 'log' }, { id: 'after', type: 'ACTION', handler: 'log' }]);
      const [, cancelled, late] = drive(def, [
        { kind: 'start', inputs: {}, now: T0 },
        { kind: 'cancel', now: T0 + 1 },
        { kind: 'step_result', step_id: 'call', ok: true, output: 1, now: T0 + 2 },
      ]);
      assert.equal(cancelled.state.status, 'cancelled');
      assert.deepEqual(cancelled.commands, [{ kind: 'cancel_action', step_id: 'call' }]);
      assert.equal(late.applied, false);
      assert.equal(late.state.status, 'cancelled');
    },
  },
  {
    name: 'advance never mutates the state it is given',
    fn() {
      const def = definition([{ id: 'wait', type: 'WAIT', handler: 'temporal:wait_for_event', event_type: 'a.b', output_key: 'r' }]);
      const [waiting] = drive(def, [{ kind: 'start', inputs: { x: 1 }, now: T0 }]);
      const frozen = JSON.stringify(waiting.state);
      advance(def, waiting.state, signal('other', {}, T0 + 1));
      advance(def, waiting.state, signal('a.b', {}, T0 + 1));
      assert.equal(JSON.stringify(waiting.state), frozen);
    },
  },
  {
    name: 'definition validation names every problem with its step id',
    fn() {
      const result = validateDefinition({
        name: 'Bad Name',
        steps: [
          { id: 'w', type: 'WAIT', handler: 'sleep', timeout_seconds: 0, event_filter: { a: [{ numeric: ['=', 1] }] }, event_type: 'a.b' },
          { id: 'c', type: 'CONDITION', condition: { field: 'x', operator: 'like', value: 1 }, then_step: 'nowhere' },
          { id: 'a', type: 'ACTION', handler: 'Log', arguments: { m: '{{ unclosed' }, output_key: 'inputs' },
          { id: 'a', type: 'LOOP' },
        ],
      });
      assert.equal(result.ok, false);
      const errors = (result as { errors: string[] }).errors;
      for (const expected of [
        /^name must be/,
        /^step "w": handler must be "temporal:wait_for_event"/,
        /^step "w": timeout_seconds must be an integer/,
        /^step "w": event_filter: "a"\[0\]: numeric operator must be one of/,
        /^step "c": condition.operator must be one of/,
        /^step "c": then_step must name a step/,
        /^step "a": handler must be a function name/,
        /^step "a": arguments: unbalanced braces/,
        /^step "a": output_key must be an identifier other than "inputs"/,
        /^step "a": id is used twice/,
        /^step "a": type must be ACTION, CONDITION, WAIT or APPROVAL/,
      ]) {
        assert.ok(errors.some((error) => expected.test(error)), `expected an error like ${expected}; got ${JSON.stringify(errors)}`);
      }
      assert.equal(validateDefinition({ name: 'ok', steps: [] }).ok, false);
      assert.equal(validateDefinition({ name: 'ok', steps: [{ id: 'w', type: 'WAIT', handler: 'temporal:wait_for_event' }] }).ok, true);
    },
  },
  {
    name: 'an ACTION template over the length limit is refused by validation and, stored before the limit, fails the step unevaluated',
    fn() {
      const long = `${'x'.repeat(70_000)}{{inputs.id}}`;
      const refused = validateDefinition({ name: 'test-flow', steps: [{ id: 'a', type: 'ACTION', handler: 'log', arguments: { m: long } }] });
      assert.equal(refused.ok, false);
      assert.match((refused as { errors: string[] }).errors.join('; '), /a string with templates may be at most 65536 characters \(this one has 70013\)/);
      const def = definition([{ id: 'a', type: 'ACTION', handler: 'log', arguments: { m: 'short' } }]);
      (def.steps[0] as { arguments: Record<string, unknown> }).arguments = { m: long };
      const [started] = drive(def, [{ kind: 'start', inputs: { id: 1 }, now: T0 }]);
      assert.equal(started.state.status, 'failed');
      assert.deepEqual(started.commands, [{ kind: 'fail', step_id: 'a', error: 'step "a": a string with templates is 70013 characters long; the limit is 65536' }]);
    },
  },

  {
    name: 'an APPROVAL step opens its gate with templates resolved and waits; pending-events shows approval.resolved',
    fn() {
      const def = definition([
        {
          id: 'gate', type: 'APPROVAL', title: 'Refund {{inputs.order}}', description: 'Amount {{inputs.amount}}',
          payload: { order: '{{inputs.order}}', amount: '{{inputs.amount}}' }, approvers: { roles: ['finance'], users: ['ann'] },
          quorum: 2, timeout_seconds: 600, output_key: 'approval',
        },
        { id: 'check', type: 'CONDITION', condition: { field: 'approval.status', operator: '==', value: 'approved' }, then_step: 'pay', else_step: 'skip' },
        { id: 'pay', type: 'ACTION', handler: 'log', arguments: { message: 'pay {{approval.case_id}}' }, end: true },
        { id: 'skip', type: 'ACTION', handler: 'log', arguments: { message: 'no' } },
      ]);
      const [waiting] = drive(def, [{ kind: 'start', inputs: { order: 'A-1', amount: 12 }, now: T0 }]);
      assert.equal(waiting.state.status, 'waiting');
      assert.equal(waiting.state.current, 'gate');
      assert.deepEqual(pendingEvents(waiting.state), ['approval.resolved']);
      assert.deepEqual(waiting.commands, [{
        kind: 'open_gate', step_id: 'gate', gate: 'approval', until: T0 + 600_000,
        request: {
          title: 'Refund A-1', description: 'Amount 12', payload: { order: 'A-1', amount: 12 },
          approvers: { roles: ['finance'], users: ['ann'] }, quorum: 2, timeout_seconds: 600,
        },
      }]);
      const output = { case_id: 'c1', status: 'approved', decisions: [{ by: 'ann', decision: 'approve' }], timed_out: false };
      const approved = advance(def, waiting.state, { kind: 'gate_result', step_id: 'gate', ok: true, output, now: T0 + 5 });
      assert.deepEqual(approved.state.context.approval, output);
      assert.deepEqual(approved.commands, [{ kind: 'run_action', step_id: 'pay', handler: 'log', arguments: { message: 'pay c1' } }]);
      assert.deepEqual(approved.state.history.map((h) => [h.step_id, h.outcome]), [['gate', 'completed'], ['check', 'then'], ['pay', undefined]]);
      assert.deepEqual(pendingEvents(approved.state), []);
      const rejected = advance(def, waiting.state, { kind: 'gate_result', step_id: 'gate', ok: true, output: { ...output, status: 'rejected' }, now: T0 + 5 });
      assert.deepEqual(rejected.commands, [{ kind: 'run_action', step_id: 'skip', handler: 'log', arguments: { message: 'no' } }]);
      // Stale results (another step, a finished gate) and signals do not resolve a gate.
      assert.equal(advance(def, approved.state, { kind: 'gate_result', step_id: 'gate', ok: true, output, now: T0 + 6 }).applied, false);
      assert.equal(advance(def, waiting.state, { kind: 'gate_result', step_id: 'pay', ok: true, output, now: T0 + 6 }).applied, false);
      const signalled = advance(def, waiting.state, signal('approval.resolved', { status: 'approved' }, T0 + 7));
      assert.equal(signalled.state.status, 'waiting');
      assert.equal(signalled.state.buffered.length, 1);
      assert.equal(advance(def, waiting.state, { kind: 'timeout', step_id: 'gate', now: T0 + 8 }).applied, false, 'a gate has no engine timeout');
    },
  },
  {
    name: 'an expired APPROVAL is recorded as a timeout; a gate that cannot open fails the execution; a cancel closes the gate',
    fn() {
      const def = definition([
        { id: 'gate', type: 'APPROVAL', title: 'Go?', approvers: { users: ['ann'] }, output_key: 'approval' },
        { id: 'after', type: 'ACTION', handler: 'log' },
      ]);
      const [waiting] = drive(def, [{ kind: 'start', inputs: {}, now: T0 }]);
      const open = waiting.commands[0] as { until: number; request: { quorum: number; timeout_seconds: number; description: string; payload: unknown } };
      assert.equal(open.until, T0 + 7 * 24 * 3600 * 1000, 'a week by default');
      assert.deepEqual([open.request.quorum, open.request.timeout_seconds, open.request.description, open.request.payload], [1, 7 * 24 * 3600, '', {}]);
      const expired = advance(def, waiting.state, {
        kind: 'gate_result', step_id: 'gate', ok: true, output: { case_id: 'c', status: 'expired', decisions: [], timed_out: true }, now: T0 + 9,
      });
      assert.equal(expired.state.history[0].outcome, 'timeout');
      assert.equal(expired.state.status, 'running');
      const failed = advance(def, waiting.state, { kind: 'gate_result', step_id: 'gate', ok: false, error: 'no approvals plugin', now: T0 + 9 });
      assert.equal(failed.state.status, 'failed');
      assert.deepEqual(failed.commands, [{ kind: 'fail', step_id: 'gate', error: 'step "gate" failed: no approvals plugin' }]);
      const cancelled = advance(def, waiting.state, { kind: 'cancel', now: T0 + 9 });
      assert.equal(cancelled.state.status, 'cancelled');
      assert.deepEqual(cancelled.commands, [{ kind: 'close_gate', step_id: 'gate', gate: 'approval' }]);
    },
  },
  {
    name: 'APPROVAL steps are validated: title, approvers, quorum, timeout, fields',
    fn() {
      const result = validateDefinition({
        name: 'bad', steps: [
          { id: 'a', type: 'APPROVAL', title: '', approvers: {} },
          { id: 'b', type: 'APPROVAL', title: 'ok', approvers: { roles: 'admin', teams: [] }, quorum: 0, timeout_seconds: 0, handler: 'x' },
          { id: 'c', type: 'APPROVAL', title: 'ok {{', approvers: { users: ['ann'] }, next: 'a', end: true },
        ],
      });
      assert.equal(result.ok, false);
      const errors = (result as { errors: string[] }).errors;
      for (const expected of [
        /^step "a": title must be a non-empty string/,
        /^step "a": approvers must name at least one role or user/,
        /^step "b": approvers: unknown field "teams"/,
        /^step "b": approvers.roles must be a list/,
        /^step "b": quorum must be an integer from 1 to 100/,
        /^step "b": timeout_seconds must be an integer from 1 to/,
        /^step "b": unknown field "handler" for a APPROVAL step/,
        /^step "c": .*unbalanced braces/,
        /^step "c": "next" and "end": true exclude each other/,
      ]) assert.ok(errors.some((error) => expected.test(error)), `expected ${expected} in ${JSON.stringify(errors)}`);
      assert.equal(validateDefinition({ name: 'ok', steps: [{ id: 'g', type: 'APPROVAL', title: 'Go?', approvers: { roles: ['admin'] } }] }).ok, true);
    },
  },
];
