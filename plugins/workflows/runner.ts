// Drives the engine. Every state change of an execution is one transaction
// that locks its row, calls advance(), stores the new state and turns the
// engine's commands into jobs (or events) in that same transaction: a crash
// leaves either the old state with its jobs or the new state with its jobs.
//
// Actions run in `workflows.step` jobs, outside any transaction (a function may
// open its own, or wait on the network); their result is fed back in a new
// locked transaction. A job carries the execution's `step_seq` from when it was
// enqueued and is ignored unless the execution still stands on that step with
// that sequence number, so a duplicate or late job never applies twice.
import { randomUUID } from 'node:crypto';
import { type CoreServices, isValidTenantAlias, notFound, type TenantTransaction } from 'agent-platform/sdk';
import { advance, type EngineCommand, type EngineInput, type ExecutionState } from '../../workflows/engine/index.ts';
import type { SignalInput, StartedExecution, WorkflowOrigin } from './api.ts';
import { definitionsStore, executionsStore } from './store.ts';
import { EVENT_SOURCE } from './events.ts';

export const START_TASK = 'workflows.start';
export const STEP_TASK = 'workflows.step';
export const TIMEOUT_TASK = 'workflows.timeout';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FINISHED = new Set(['completed', 'failed', 'cancelled']);

export const timeoutKey = (executionId: string, stepId: string) => `wf-timeout:${executionId}:${stepId}`;

export interface StepPayload {
  tenant_id: string;
  execution_id: string;
  step_id: string;
  seq: number;
  handler: string;
  arguments: Record<string, unknown>;
}

export interface TimeoutPayload {
  tenant_id: string;
  execution_id: string;
  step_id: string;
  seq: number;
}

type LockedRow = NonNullable<Awaited<ReturnType<typeof executionsStore.lock>>>;

/** What a transition feeds the engine; undefined when the input no longer applies (a stale job). */
type InputFor = (row: LockedRow) => EngineInput | { kind: 'start' } | undefined;

export interface TransitionResult {
  found: boolean;
  applied: boolean;
  state?: ExecutionState;
}

export type Runner = ReturnType<typeof createRunner>;

type Jobs = Pick<CoreServices['jobs'], 'enqueue' | 'removeJob'>;

/**
 * Turns the job-backed commands of one advance (actions, wait deadlines,
 * cancelled deadlines) into jobs in the transaction; returns the new step
 * sequence number. Events (complete, fail) are the caller's.
 */
async function enqueueCommands(
  jobs: Jobs, trx: TenantTransaction, base: { tenant_id: string; execution_id: string }, seq: number,
  commands: EngineCommand[], stepMaxAttempts: number | undefined,
): Promise<number> {
  for (const command of commands) {
    if (command.kind === 'run_action') {
      seq += 1;
      await jobs.enqueue(STEP_TASK, { ...base, step_id: command.step_id, seq, handler: command.handler, arguments: command.arguments }, {
        trx, maxAttempts: stepMaxAttempts,
      });
    } else if (command.kind === 'wait') {
      seq += 1;
      await jobs.enqueue(TIMEOUT_TASK, { ...base, step_id: command.step_id, seq }, {
        trx, jobKey: timeoutKey(base.execution_id, command.step_id), runAt: new Date(command.until),
      });
    } else if (command.kind === 'cancel_timeout') {
      await jobs.removeJob(timeoutKey(base.execution_id, command.step_id), trx);
    }
  }
  return seq;
}

const QUIET = new Set<EngineCommand['kind']>(['run_action', 'wait']);

/**
 * Creates an execution in the caller's transaction with a snapshot of the
 * definition. With `inline` (the server), the engine's first advance is taken
 * here when it only schedules work (its first action's job, or a wait's
 * deadline): a start job fewer per execution. Otherwise (the first advance
 * would end the execution and emit its event, or the CLI, which has the queue
 * but no event backend) a start job runs it in the server's workers.
 */
export async function startExecution(
  jobs: Jobs, trx: TenantTransaction, tenantId: string, name: string,
  inputs: Record<string, unknown>, origin: WorkflowOrigin, inline?: { stepMaxAttempts: number },
): Promise<StartedExecution> {
  const definition = await definitionsStore.get(trx, name);
  if (!definition) throw notFound(`Workflow not found: ${name}`, 'WORKFLOW_NOT_FOUND');
  const id = randomUUID();
  const snapshot = { name, description: definition.description, steps: definition.steps };
  const first = inline ? advance(snapshot, null, { kind: 'start', inputs, now: Date.now() }) : undefined;
  const values = { id, tenant_id: tenantId, workflow_name: name, workflow_version: definition.version, definition: snapshot, inputs, origin };
  if (first && first.commands.every((command) => QUIET.has(command.kind))) {
    const base = { tenant_id: tenantId, execution_id: id };
    const seq = await enqueueCommands(jobs, trx, base, 0, first.commands, inline!.stepMaxAttempts);
    await executionsStore.insert(trx, { ...values, status: first.state.status, state: first.state, step_seq: seq });
    return { execution_id: id, workflow_name: name, status: first.state.status };
  }
  await executionsStore.insert(trx, values);
  await jobs.enqueue(START_TASK, { tenant_id: tenantId, execution_id: id }, { trx });
  return { execution_id: id, workflow_name: name, status: 'running' };
}

export function createRunner(core: Pick<CoreServices, 'withTenant' | 'jobs' | 'events'>, options: { stepMaxAttempts: number }) {
  const { withTenant, jobs, events } = core;

  /** Turns the commands of one advance into jobs and events; returns the new step sequence number. */
  async function apply(trx: TenantTransaction, tenantId: string, row: LockedRow, state: ExecutionState, commands: EngineCommand[]) {
    const seq = await enqueueCommands(jobs, trx, { tenant_id: tenantId, execution_id: row.id }, row.step_seq, commands, options.stepMaxAttempts);
    for (const command of commands) {
      if (command.kind === 'complete') {
        await events.emit(trx, tenantId, {
          type: 'workflow.completed', source: EVENT_SOURCE,
          data: { execution_id: row.id, workflow_name: row.workflow_name, status: 'completed', context: command.context },
        });
      } else if (command.kind === 'fail') {
        await events.emit(trx, tenantId, {
          type: 'workflow.failed', source: EVENT_SOURCE,
          data: { execution_id: row.id, workflow_name: row.workflow_name, status: 'failed', error: command.error, step_id: command.step_id ?? null },
        });
      }
    }
    // A cancelled execution has ended without completing: whoever waits for
    // its end (a parent workflow, an alert) hears it as a failure.
    if (state.status === 'cancelled' && row.status !== 'cancelled') {
      await events.emit(trx, tenantId, {
        type: 'workflow.failed', source: EVENT_SOURCE,
        data: { execution_id: row.id, workflow_name: row.workflow_name, status: 'cancelled', error: 'cancelled', step_id: row.state?.current ?? null },
      });
    }
    return seq;
  }

  /**
   * One locked state change. An execution whose start job has not run yet is
   * started first, so a signal or a cancel that arrives before it is not lost.
   */
  function transition(tenantId: string, executionId: string, inputFor: InputFor): Promise<TransitionResult> {
    return withTenant(tenantId, async (trx) => {
      const row = await executionsStore.lock(trx, executionId);
      if (!row) return { found: false, applied: false };
      const input = inputFor(row);
      if (!input) return { found: true, applied: false };
      let state = row.state;
      const commands: EngineCommand[] = [];
      const now = Date.now();
      if (!state) {
        const started = advance(row.definition, null, { kind: 'start', inputs: row.inputs, now });
        state = started.state;
        commands.push(...started.commands);
      } else if (input.kind === 'start') {
        return { found: true, applied: false };
      }
      // `applied` tells whether the input itself took effect (a signal to an
      // execution that its own start just completed did not).
      let applied = input.kind === 'start';
      if (input.kind !== 'start') {
        const result = advance(row.definition, state, input);
        if (result.applied) {
          state = result.state;
          commands.push(...result.commands);
          applied = true;
        } else if (row.state) {
          return { found: true, applied: false };
        }
      }
      const seq = await apply(trx, tenantId, row, state, commands);
      await executionsStore.save(trx, row.id, {
        status: state.status, state, step_seq: seq, error: state.error ?? null, finished: FINISHED.has(state.status),
      });
      return { found: true, applied, state };
    });
  }

  /** The execution still stands on this step, as it did when the job was enqueued. */
  const onStep = (row: LockedRow | NonNullable<Awaited<ReturnType<typeof executionsStore.get>>> | undefined, p: TimeoutPayload, status: string) =>
    Boolean(row && row.status === status && row.state?.current === p.step_id && row.step_seq === p.seq);

  return {
    transition,
    onStep,

    start: (trx: TenantTransaction, tenantId: string, name: string, inputs: Record<string, unknown>, origin: WorkflowOrigin) =>
      startExecution(jobs, trx, tenantId, name, inputs, origin, { stepMaxAttempts: options.stepMaxAttempts }),

    /** Runs the first steps of an execution (a no-op when a signal or cancel started it already). */
    async runStart(payload: { tenant_id: string; execution_id: string }): Promise<void> {
      await transition(payload.tenant_id, payload.execution_id, () => ({ kind: 'start' }));
    },

    async runTimeout(payload: TimeoutPayload): Promise<void> {
      await transition(payload.tenant_id, payload.execution_id, (row) =>
        onStep(row, payload, 'waiting') ? { kind: 'timeout', step_id: payload.step_id, now: Date.now() } : undefined);
    },

    /** A signal resolves the matching wait or is buffered; false when there is no such execution or it has ended. */
    async signal(tenantId: string, executionId: string, signal: SignalInput): Promise<boolean> {
      if (!UUID.test(executionId) || !isValidTenantAlias(tenantId)) return false;
      const received = Date.now();
      const result = await transition(tenantId, executionId, (row) =>
        FINISHED.has(row.status) ? undefined : {
          kind: 'signal',
          signal: { event_type: signal.event_type, data: structuredClone(signal.data ?? {}), sender: signal.sender, received_at: received },
          now: received,
        });
      return result.applied;
    },

    async cancel(tenantId: string, executionId: string): Promise<TransitionResult> {
      if (!UUID.test(executionId)) return { found: false, applied: false };
      return transition(tenantId, executionId, (row) => (FINISHED.has(row.status) ? undefined : { kind: 'cancel', now: Date.now() }));
    },
  };
}
