// The workflow engine's contract. The engine is pure: it never reads the clock
// or does I/O; time comes in with each input (`now`, epoch milliseconds) and
// effects go out as commands that the workflows plugin turns into jobs.
import type { EventFilter } from './filters.ts';

export interface ActionStep {
  id: string;
  type: 'ACTION';
  /** A function name in the core registry (e.g. `log`, `emit_event`, `http_request`). */
  handler: string;
  /** Strings may hold {{path}} templates over the context (`inputs.*`, earlier output keys). */
  arguments?: Record<string, unknown>;
  output_key?: string;
  /** Step to go to next; the following step in the list when absent (and no `end`). */
  next?: string;
  /** `true`: the workflow completes after this step (ends a CONDITION branch). Excludes `next`. */
  end?: boolean;
}

export type ConditionOperator = '==' | '!=' | '>' | '>=' | '<' | '<=' | 'in' | 'contains' | 'exists';

export interface ConditionStep {
  id: string;
  type: 'CONDITION';
  condition: { field: string; operator: ConditionOperator; value?: unknown };
  /** Where to go when true / false; the following step in the list when absent. */
  then_step?: string;
  else_step?: string;
}

export interface WaitStep {
  id: string;
  type: 'WAIT';
  handler: 'temporal:wait_for_event';
  /** Omitted: a pure timer that resolves at its timeout. */
  event_type?: string;
  /** Conditions on the signal's event_data (AND); {} matches any. */
  event_filter?: EventFilter;
  timeout_seconds?: number;
  output_key?: string;
  next?: string;
  end?: boolean;
}

/** Who may decide an approval case: holders of a role in the tenant, or users by subject. */
export interface Approvers {
  roles?: string[];
  users?: string[];
}

/**
 * A human gate: the execution opens an approval case (through the gate the
 * approvals plugin registers with the workflows plugin) and waits until the
 * case is resolved; its output is `{case_id, status, decisions, timed_out}`.
 */
export interface ApprovalStep {
  id: string;
  type: 'APPROVAL';
  /** Strings may hold {{path}} templates over the context, as may `description` and `payload`. */
  title: string;
  description?: string;
  /** What is to be approved (any JSON, templates resolved). */
  payload?: unknown;
  approvers: Approvers;
  /** Approvals needed (default 1); one rejection rejects. */
  quorum?: number;
  /** Until the case expires (default 7 days). */
  timeout_seconds?: number;
  output_key?: string;
  next?: string;
  end?: boolean;
}

export type Step = ActionStep | ConditionStep | WaitStep | ApprovalStep;

/** What a gate (an APPROVAL step) asks its handler to open, templates resolved. */
export interface ApprovalRequest {
  title: string;
  description: string;
  payload: unknown;
  approvers: Approvers;
  quorum: number;
  timeout_seconds: number;
}

export interface WorkflowDefinition {
  name: string;
  description?: string;
  steps: Step[];
}

export type ExecutionStatus = 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled';

export interface Signal {
  event_type: string;
  data: Record<string, unknown>;
  /** Who sent it, e.g. `webhook`, `event`, `api`. */
  sender: string;
  /** Epoch milliseconds. */
  received_at: number;
}

export interface StepRecord {
  step_id: string;
  type: Step['type'];
  started_at: number;
  finished_at?: number;
  /** An APPROVAL step ends `completed` when its case is resolved, `timeout` when the case expired. */
  outcome?: 'completed' | 'failed' | 'then' | 'else' | 'signal' | 'timeout' | 'cancelled';
  error?: string;
}

export interface ExecutionState {
  status: ExecutionStatus;
  /** The step being run or waited on; null when finished. */
  current: string | null;
  /** `inputs` and every output_key written so far. */
  context: { inputs: Record<string, unknown>; [outputKey: string]: unknown };
  /** Present while status is `waiting`. */
  /** `gate`: an APPROVAL step waits for its case (resolved through a gate_result, not a signal). */
  wait?: { step_id: string; event_type?: string; event_filter: EventFilter; deadline: number; gate?: 'approval' };
  /** Signals not consumed by a wait yet, oldest first: offered to later waits. */
  buffered: Signal[];
  history: StepRecord[];
  error?: string;
}

export type EngineInput =
  | { kind: 'start'; inputs: Record<string, unknown>; now: number }
  | { kind: 'step_result'; step_id: string; ok: true; output: unknown; now: number }
  | { kind: 'step_result'; step_id: string; ok: false; error: string; now: number }
  | { kind: 'signal'; signal: Signal; now: number }
  | { kind: 'timeout'; step_id: string; now: number }
  /** A gate (APPROVAL) was resolved with its output, or could not be opened (`ok: false`). */
  | { kind: 'gate_result'; step_id: string; ok: true; output: unknown; now: number }
  | { kind: 'gate_result'; step_id: string; ok: false; error: string; now: number }
  | { kind: 'cancel'; now: number };

export type EngineCommand =
  /** Call `handler` with these (resolved) arguments, then feed back a step_result. */
  | { kind: 'run_action'; step_id: string; handler: string; arguments: Record<string, unknown> }
  /** Feed back a timeout for step_id at `until` (epoch ms) unless a signal resolves it first. */
  | { kind: 'wait'; step_id: string; event_type?: string; until: number }
  /** A wait was resolved by a signal: its timeout is void. */
  | { kind: 'cancel_timeout'; step_id: string }
  /** A running action was cancelled: its run_action is void (a call not begun yet need not happen). */
  | { kind: 'cancel_action'; step_id: string }
  /** Open the gate (create the approval case) and feed back a gate_result when it resolves (by `until` at the latest). */
  | { kind: 'open_gate'; step_id: string; gate: 'approval'; request: ApprovalRequest; until: number }
  /** The execution no longer waits at this gate (cancelled): its case is void. */
  | { kind: 'close_gate'; step_id: string; gate: 'approval' }
  | { kind: 'complete'; context: ExecutionState['context'] }
  | { kind: 'fail'; error: string; step_id?: string };

export interface AdvanceResult {
  state: ExecutionState;
  commands: EngineCommand[];
  /** Whether the input changed anything (a stale step_result or timeout is ignored). */
  applied: boolean;
}

/** Result stored under a WAIT's output_key. */
export type WaitResult =
  | { output: Record<string, unknown>; event_type: string; source: 'signal'; sender: string; received_at: string }
  | { output: null; event_type: string | null; source: 'timeout'; timed_out: true };
