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
import { type CoreServices, type EventInput, isUuid, isValidTenantAlias, type TenantTransaction } from 'agent-platform/sdk';
import { advance, type EngineCommand, type EngineInput, type ExecutionState } from '../../../workflows/engine/index.ts';
import type { GateRef, SignalInput, WorkflowOrigin } from '../api.ts';
import type { GateRegistry } from './gates.ts';
import { stepKey, timeoutKey } from './job-names.ts';
import { jobBase, openStartBatch, scheduledJobs, startExecution, type ExecutionJobBase, type GateToOpen } from './start-batch.ts';
import { executionsStore } from '../store/workflows.ts';
import { EVENT_SOURCE } from './events.ts';

export { START_TASK, STEP_TASK, TIMEOUT_TASK, stepKey, timeoutKey } from './job-names.ts';
export { startExecution } from './start-batch.ts';

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

export interface StepPayload extends ExecutionJobBase {
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

type Jobs = Pick<CoreServices['jobs'], 'enqueueMany' | 'removeJob'>;

/**
 * Turns the job-backed commands of one advance (actions, wait deadlines,
 * cancelled deadlines) into jobs in the transaction; returns the new step
 * sequence number. Events (complete, fail) are the caller's. Removals go
 * first: the engine voids a deadline or an action (a signal, a cancel) before
 * it schedules anything new, which may carry the same key (a loop back to the
 * same WAIT). A voided action's job is the one of the current visit (`seq`):
 * removed unless it is running (then its result is ignored).
 */
async function enqueueCommands(
  jobs: Jobs, trx: TenantTransaction, base: ExecutionJobBase, seq: number,
  commands: EngineCommand[], stepMaxAttempts: number | undefined,
): Promise<{ seq: number; gates: GateToOpen[] }> {
  for (const command of commands) {
    if (command.kind === 'cancel_timeout') await jobs.removeJob(timeoutKey(base.execution_id, command.step_id), trx);
    if (command.kind === 'cancel_action') await jobs.removeJob(stepKey(base.execution_id, seq), trx);
  }
  const scheduled = scheduledJobs(base, seq, commands, stepMaxAttempts);
  if (scheduled.jobs.length > 0) await jobs.enqueueMany(scheduled.jobs, trx);
  return { seq: scheduled.seq, gates: scheduled.gates };
}

function isClientError(err: unknown): err is { isBoom: true; message: string } {
  const boom = err as { isBoom?: boolean; output?: { statusCode: number } };
  return Boolean(boom.isBoom && boom.output && boom.output.statusCode < 500);
}

export function createRunner(core: Pick<CoreServices, 'withTenant' | 'jobs' | 'events'>, options: { stepMaxAttempts: number; gates: GateRegistry }) {
  const { withTenant, jobs, events } = core;
  const { gates } = options;

  /**
   * Opens the gates an advance reached, in its transaction; the error that
   * fails the step when one cannot open (its plugin is not loaded any more,
   * or it refused the request).
   */
  async function openGate(trx: TenantTransaction, tenantId: string, executionId: string, gate: GateToOpen): Promise<string | undefined> {
    const missing = gates.missing('APPROVAL');
    const handler = gates.get('approval');
    if (missing || !handler) return missing;
    try {
      await handler.open(trx, tenantId, { execution_id: executionId, step_id: gate.step_id, seq: gate.seq }, gate.request);
      return undefined;
    } catch (err) {
      if (isClientError(err)) return err.message;
      throw err;
    }
  }

  /** The events of an advance (an execution ended). */
  function endEvents(row: LockedRow, state: ExecutionState, commands: EngineCommand[]): EventInput[] {
    // The execution caused these events; its origin may know the depth of the event that started it.
    const depth = row.origin?.chaindepth;
    const cause = { execution_id: row.id, ...(typeof depth === 'number' ? { chaindepth: depth } : {}) };
    const ends: EventInput[] = [];
    for (const command of commands) {
      if (command.kind === 'complete') {
        ends.push({
          type: 'workflow.completed', source: EVENT_SOURCE, cause,
          data: { execution_id: row.id, workflow_name: row.workflow_name, status: 'completed', context: command.context },
        });
      } else if (command.kind === 'fail') {
        ends.push({
          type: 'workflow.failed', source: EVENT_SOURCE, cause,
          data: { execution_id: row.id, workflow_name: row.workflow_name, status: 'failed', error: command.error, step_id: command.step_id ?? null },
        });
      }
    }
    // A cancelled execution has ended without completing: whoever waits for
    // its end (a parent workflow, an alert) hears it as a failure.
    if (state.status === 'cancelled' && row.status !== 'cancelled') {
      ends.push({
        type: 'workflow.failed', source: EVENT_SOURCE, cause,
        data: { execution_id: row.id, workflow_name: row.workflow_name, status: 'cancelled', error: 'cancelled', step_id: row.state?.current ?? null },
      });
    }
    return ends;
  }

  /** Stores the new state; the first event announcing an end goes in the same statement (one round trip). */
  async function saveAndAnnounce(trx: TenantTransaction, tenantId: string, save: ReturnType<typeof executionsStore.saveQuery>, ends: EventInput[]) {
    if (ends.length === 0) return void await save.execute();
    await events.emit(trx, tenantId, ends[0], { alongside: save });
    for (const end of ends.slice(1)) await events.emit(trx, tenantId, end);
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
      const { seq, gates: opened } = await enqueueCommands(jobs, trx, jobBase(tenantId, row.id, row.origin), row.step_seq, commands, options.stepMaxAttempts);
      for (const command of commands) {
        if (command.kind === 'close_gate') await gates.get(command.gate)?.close(trx, tenantId, { execution_id: row.id, step_id: command.step_id });
      }
      for (const gate of opened) {
        const error = await openGate(trx, tenantId, row.id, gate);
        if (error === undefined) continue;
        // The gate could not open: the step fails (an advance that only fails: no jobs to add).
        const failed = advance(row.definition, state, { kind: 'gate_result', step_id: gate.step_id, ok: false, error, now });
        state = failed.state;
        commands.push(...failed.commands);
      }
      const save = executionsStore.saveQuery(trx, row.id, {
        status: state.status, state, step_seq: seq, error: state.error ?? null, finished: FINISHED.has(state.status),
      });
      await saveAndAnnounce(trx, tenantId, save, endEvents(row, state, commands));
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

    startBatch: (trx: TenantTransaction, tenantId: string, names: Iterable<string>) =>
      openStartBatch(jobs, trx, tenantId, names, { stepMaxAttempts: options.stepMaxAttempts }),

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
      if (!isUuid(executionId) || !isValidTenantAlias(tenantId)) return false;
      const received = Date.now();
      const result = await transition(tenantId, executionId, (row) =>
        FINISHED.has(row.status) ? undefined : {
          kind: 'signal',
          signal: { event_type: signal.event_type, data: structuredClone(signal.data ?? {}), sender: signal.sender, received_at: received },
          now: received,
        });
      return result.applied;
    },

    /** A gate resolved: the execution goes on if it still waits at that visit of the step. */
    async resolveGate(tenantId: string, ref: GateRef, output: Record<string, unknown>): Promise<boolean> {
      if (!isUuid(ref.execution_id) || !isValidTenantAlias(tenantId)) return false;
      const payload = { tenant_id: tenantId, ...ref };
      const result = await transition(tenantId, ref.execution_id, (row) =>
        onStep(row, payload, 'waiting') ? { kind: 'gate_result', step_id: ref.step_id, ok: true, output: structuredClone(output), now: Date.now() } : undefined);
      return result.applied;
    },

    async cancel(tenantId: string, executionId: string): Promise<TransitionResult> {
      if (!isUuid(executionId)) return { found: false, applied: false };
      return transition(tenantId, executionId, (row) => (FINISHED.has(row.status) ? undefined : { kind: 'cancel', now: Date.now() }));
    },
  };
}
