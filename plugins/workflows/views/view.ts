// How an execution row reads from outside (REST and GraphQL): the engine's
// state becomes a context, a step history with ISO timings, and the event
// types it waits for.
import { pendingEvents, type StepRecord } from '../../../workflows/engine/index.ts';
import type { ExecutionRow } from '../store/workflows.ts';

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

export function stepView(record: StepRecord) {
  return {
    step_id: record.step_id,
    type: record.type,
    // An open record is the step being run (ACTION) or waited on (WAIT, APPROVAL).
    status: record.outcome ?? (record.type === 'WAIT' || record.type === 'APPROVAL' ? 'waiting' : 'running'),
    started_at: iso(record.started_at)!,
    finished_at: iso(record.finished_at),
    duration_ms: record.finished_at === undefined ? null : record.finished_at - record.started_at,
    error: record.error ?? null,
  };
}

export type ExecutionSummary = ReturnType<typeof summaryView>;

export function summaryView(row: Omit<ExecutionRow, 'inputs' | 'state' | 'step_seq'>) {
  return {
    execution_id: row.id,
    workflow_name: row.workflow_name,
    workflow_version: row.workflow_version,
    status: row.status,
    error: row.error,
    origin: row.origin,
    created_at: row.created_at,
    updated_at: row.updated_at,
    finished_at: row.finished_at,
  };
}

export type ExecutionView = ReturnType<typeof executionView>;

export function executionView(row: ExecutionRow) {
  const state = row.state;
  return {
    ...summaryView(row),
    // Before its start job has run, an execution is its inputs.
    current_step: state?.current ?? null,
    context: state?.context ?? { inputs: row.inputs },
    pending_events: state ? pendingEvents(state) : [],
    wait: state?.wait
      ? { step_id: state.wait.step_id, event_type: state.wait.event_type ?? null, deadline: iso(state.wait.deadline) }
      : null,
    buffered_signals: state?.buffered.length ?? 0,
    steps: (state?.history ?? []).map(stepView),
  };
}

type ExecutionState = NonNullable<ExecutionRow['state']>;

/**
 * What a waiting execution waits for, in full: an event (its type and
 * filter), a timer, or an approval gate, each with its deadline.
 */
export function waitView(wait: NonNullable<ExecutionState['wait']>) {
  return {
    step_id: wait.step_id,
    kind: wait.gate === 'approval' ? 'approval' : wait.event_type ? 'event' : 'timer',
    event_type: wait.event_type ?? null,
    event_filter: wait.event_filter,
    deadline: iso(wait.deadline)!,
  };
}

/** A signal received and not yet taken by a wait (offered to later waits, oldest first). */
export function signalView(signal: ExecutionState['buffered'][number]) {
  return { event_type: signal.event_type, data: signal.data, sender: signal.sender, received_at: iso(signal.received_at)! };
}

export type ExecutionGraphView = ReturnType<typeof executionGraphView>;

/** The execution as GraphQL reads it: the REST view, with the wait in full and the buffered signals themselves. */
export function executionGraphView(row: ExecutionRow) {
  const state = row.state;
  return {
    ...executionView(row),
    wait_detail: state?.wait ? waitView(state.wait) : null,
    signals: (state?.buffered ?? []).map(signalView),
  };
}
