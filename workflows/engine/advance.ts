// The interpreter: advance(definition, state, input) -> {state, commands}.
// It never mutates its arguments, reads no clock and does no I/O, so the same
// inputs always give the same result: the workflows plugin can persist the
// state and replay commands as jobs, and a stale or duplicate input (a step
// result for a step that is no longer current, a late timeout) changes nothing.
import { evaluateCondition } from './conditions.ts';
import { matchesFilter } from './filters.ts';
import { matchesTypePattern } from './patterns.ts';
import { successorId } from './successors.ts';
import { resolveTemplates, TemplateTooLongError } from './templates.ts';
import { DEFAULT_APPROVAL_TIMEOUT_SECONDS, DEFAULT_WAIT_TIMEOUT_SECONDS } from './validate.ts';
import type {
  AdvanceResult, ApprovalStep, EngineCommand, EngineInput, ExecutionState, Signal, Step, StepRecord, WaitResult, WaitStep, WorkflowDefinition,
} from './types.ts';

/** CONDITION steps run inline; a definition that loops through them without pausing is stopped here. */
const MAX_INLINE_STEPS = 1000;

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

class Run {
  readonly state: ExecutionState;
  readonly commands: EngineCommand[] = [];
  private readonly definition: WorkflowDefinition;
  private readonly now: number;

  constructor(definition: WorkflowDefinition, state: ExecutionState, now: number) {
    this.definition = definition;
    this.state = state;
    this.now = now;
  }

  stepById(id: string): Step | undefined {
    return this.definition.steps.find((step) => step.id === id);
  }

  /** Its explicit `next`, null for `end: true`, else the step after `step` in list order. */
  following(step: Step): string | null {
    return successorId(this.definition.steps, step);
  }

  finishRecord(stepId: string, outcome: StepRecord['outcome'], error?: string): void {
    const record = [...this.state.history].reverse().find((r) => r.step_id === stepId && r.finished_at === undefined);
    if (record) {
      record.finished_at = this.now;
      record.outcome = outcome;
      if (error) record.error = error;
    }
  }

  complete(): void {
    this.state.status = 'completed';
    this.state.current = null;
    delete this.state.wait;
    this.commands.push({ kind: 'complete', context: this.state.context });
  }

  fail(error: string, stepId?: string): void {
    this.state.status = 'failed';
    this.state.current = null;
    this.state.error = error;
    delete this.state.wait;
    this.commands.push({ kind: 'fail', error, ...(stepId ? { step_id: stepId } : {}) });
  }

  /** Runs from `stepId` until the workflow must pause (an action, a wait) or ends. */
  proceed(stepId: string | null): void {
    for (let count = 0; ; count++) {
      if (stepId === null) return this.complete();
      if (count >= MAX_INLINE_STEPS) return this.fail(`more than ${MAX_INLINE_STEPS} steps ran without pausing: the definition loops`);
      const step = this.stepById(stepId);
      if (!step) return this.fail(`step "${stepId}" does not exist`, stepId);
      switch (step.type) {
        case 'CONDITION': {
          const holds = evaluateCondition(step.condition, this.state.context);
          this.state.history.push({ step_id: step.id, type: step.type, started_at: this.now, finished_at: this.now, outcome: holds ? 'then' : 'else' });
          const branch = holds ? step.then_step : step.else_step;
          stepId = branch ?? this.following(step);
          continue;
        }
        case 'ACTION': {
          this.state.status = 'running';
          this.state.current = step.id;
          this.state.history.push({ step_id: step.id, type: step.type, started_at: this.now });
          let args: Record<string, unknown>;
          try {
            args = resolveTemplates(step.arguments ?? {}, this.state.context) as Record<string, unknown>;
          } catch (err) {
            // A template over the length limit (stored before the limit): refused, the step fails.
            if (err instanceof TemplateTooLongError) return this.fail(`step "${step.id}": ${err.message}`, step.id);
            throw err;
          }
          this.commands.push({ kind: 'run_action', step_id: step.id, handler: step.handler, arguments: args });
          return;
        }
        case 'WAIT': {
          this.state.history.push({ step_id: step.id, type: step.type, started_at: this.now });
          const buffered = this.state.buffered.findIndex((signal) => signalMatches(step, signal));
          if (buffered >= 0) {
            // A signal that arrived earlier (before this wait, or while an
            // earlier wait did not want it) resolves this wait at once.
            const [signal] = this.state.buffered.splice(buffered, 1);
            this.resolveWait(step, signalResult(signal), 'signal');
            stepId = this.following(step);
            continue;
          }
          const timeout = step.timeout_seconds ?? DEFAULT_WAIT_TIMEOUT_SECONDS;
          const deadline = this.now + timeout * 1000;
          this.state.status = 'waiting';
          this.state.current = step.id;
          this.state.wait = { step_id: step.id, event_type: step.event_type, event_filter: step.event_filter ?? {}, deadline };
          this.commands.push({ kind: 'wait', step_id: step.id, ...(step.event_type ? { event_type: step.event_type } : {}), until: deadline });
          return;
        }
        case 'APPROVAL':
          return this.openGate(step);
      }
    }
  }

  /** An APPROVAL step: the case is opened by the gate's handler; the execution waits for its resolution. */
  openGate(step: ApprovalStep): void {
    this.state.history.push({ step_id: step.id, type: step.type, started_at: this.now });
    let texts: { title: unknown; description: unknown; payload: unknown };
    try {
      texts = resolveTemplates({ title: step.title, description: step.description ?? '', payload: step.payload ?? {} }, this.state.context) as typeof texts;
    } catch (err) {
      if (err instanceof TemplateTooLongError) return this.fail(`step "${step.id}": ${err.message}`, step.id);
      throw err;
    }
    const text = (value: unknown) => (typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value));
    const timeout = step.timeout_seconds ?? DEFAULT_APPROVAL_TIMEOUT_SECONDS;
    const deadline = this.now + timeout * 1000;
    this.state.status = 'waiting';
    this.state.current = step.id;
    this.state.wait = { step_id: step.id, event_type: 'approval.resolved', event_filter: {}, deadline, gate: 'approval' };
    this.commands.push({
      kind: 'open_gate', step_id: step.id, gate: 'approval', until: deadline,
      request: {
        title: text(texts.title), description: text(texts.description), payload: texts.payload ?? {},
        approvers: structuredClone(step.approvers), quorum: step.quorum ?? 1, timeout_seconds: timeout,
      },
    });
  }

  resolveWait(step: WaitStep, result: WaitResult, outcome: 'signal' | 'timeout'): void {
    if (step.output_key) this.state.context[step.output_key] = result;
    this.finishRecord(step.id, outcome);
    delete this.state.wait;
    this.state.status = 'running';
    this.state.current = null;
  }
}

function signalMatches(step: WaitStep, signal: Signal): boolean {
  if (!step.event_type) return false; // a pure timer takes no signals
  return matchesTypePattern(step.event_type, signal.event_type) && matchesFilter(step.event_filter ?? {}, signal.data);
}

function signalResult(signal: Signal): WaitResult {
  return {
    output: signal.data,
    event_type: signal.event_type,
    source: 'signal',
    sender: signal.sender,
    received_at: String(Math.floor(signal.received_at / 1000)),
  };
}

export function initialState(inputs: Record<string, unknown>): ExecutionState {
  return { status: 'running', current: null, context: { inputs }, buffered: [], history: [] };
}

export function advance(definition: WorkflowDefinition, state: ExecutionState | null, input: EngineInput): AdvanceResult {
  if (input.kind === 'start') {
    if (state) throw new Error('start needs no prior state');
    const run = new Run(definition, initialState(structuredClone(input.inputs)), input.now);
    run.proceed(definition.steps[0]?.id ?? null);
    return { state: run.state, commands: run.commands, applied: true };
  }
  if (!state) throw new Error(`${input.kind} needs the execution's state`);
  const unchanged: AdvanceResult = { state, commands: [], applied: false };
  if (FINISHED.has(state.status)) return unchanged;
  const run = new Run(definition, structuredClone(state), input.now);
  const current = state.current ? run.stepById(state.current) : undefined;

  switch (input.kind) {
    case 'step_result': {
      if (state.status !== 'running' || state.current !== input.step_id || current?.type !== 'ACTION') return unchanged;
      if (!input.ok) {
        run.finishRecord(current.id, 'failed', input.error);
        run.fail(`step "${current.id}" failed: ${input.error}`, current.id);
        break;
      }
      run.finishRecord(current.id, 'completed');
      if (current.output_key) run.state.context[current.output_key] = input.output ?? null;
      run.proceed(run.following(current));
      break;
    }
    case 'signal': {
      const wait = state.wait;
      if (state.status === 'waiting' && current?.type === 'WAIT' && wait && signalMatches(current, input.signal)) {
        run.resolveWait(current, signalResult(input.signal), 'signal');
        run.commands.push({ kind: 'cancel_timeout', step_id: current.id });
        run.proceed(run.following(current));
      } else {
        run.state.buffered.push(structuredClone(input.signal));
      }
      break;
    }
    case 'timeout': {
      if (state.status !== 'waiting' || state.current !== input.step_id || current?.type !== 'WAIT') return unchanged;
      run.resolveWait(current, { output: null, event_type: current.event_type ?? null, source: 'timeout', timed_out: true }, 'timeout');
      run.proceed(run.following(current));
      break;
    }
    case 'gate_result': {
      if (state.status !== 'waiting' || state.current !== input.step_id || current?.type !== 'APPROVAL') return unchanged;
      delete run.state.wait;
      if (!input.ok) {
        run.finishRecord(current.id, 'failed', input.error);
        run.fail(`step "${current.id}" failed: ${input.error}`, current.id);
        break;
      }
      const output = input.output ?? null;
      if (current.output_key) run.state.context[current.output_key] = output;
      const timedOut = (output as { timed_out?: unknown } | null)?.timed_out === true;
      run.finishRecord(current.id, timedOut ? 'timeout' : 'completed');
      run.state.status = 'running';
      run.state.current = null;
      run.proceed(run.following(current));
      break;
    }
    case 'cancel': {
      if (state.current) run.finishRecord(state.current, 'cancelled');
      if (state.status === 'waiting' && state.current && current?.type === 'APPROVAL') {
        run.commands.push({ kind: 'close_gate', step_id: state.current, gate: 'approval' });
      } else if (state.status === 'waiting' && state.current) {
        run.commands.push({ kind: 'cancel_timeout', step_id: state.current });
      }
      if (state.status === 'running' && state.current) run.commands.push({ kind: 'cancel_action', step_id: state.current });
      run.state.status = 'cancelled';
      run.state.current = null;
      delete run.state.wait;
      break;
    }
  }
  return { state: run.state, commands: run.commands, applied: true };
}

/** The event types an execution is waiting for: empty unless it waits on a signal. */
export function pendingEvents(state: ExecutionState): string[] {
  return state.status === 'waiting' && state.wait?.event_type ? [state.wait.event_type] : [];
}
