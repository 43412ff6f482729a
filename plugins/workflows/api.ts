// What the workflows plugin exposes to other plugins (register's `workflows` dependency):
// the events plugin starts workflows from triggers, the webhooks plugin
// delivers signed-resume signals.
import type { Actor, TenantTransaction } from 'agent-platform/sdk';
import type { OperationNodeSource } from 'kysely';
import type { ApprovalRequest } from '../../workflows/engine/index.ts';

export type { ApprovalRequest };

export interface WorkflowOrigin {
  type: 'api' | 'trigger' | 'schedule' | 'deadman' | 'backfill' | 'workflow';
  /** e.g. the trigger name, or the event id that caused the start. */
  id?: string;
  /**
   * Started for a stream event (a trigger, a backfill): that event's chain
   * depth. The execution's own events are one link deeper (EVENTS_MAX_CHAIN_DEPTH).
   */
  chaindepth?: number;
  /**
   * The person the execution acts for: its ACTION steps call functions with
   * that person's roles at each call (who started it through the API, the
   * trigger's creator or last editor). Absent: a system-level start, whose
   * steps call as `system:workflows`.
   */
  acting_for?: Actor;
}

export interface StartedExecution {
  execution_id: string;
  workflow_name: string;
  status: string;
}

export interface StartBatch {
  add(name: string, inputs: Record<string, unknown>, origin: WorkflowOrigin): StartedExecution;
  /**
   * Writes the executions added and their first jobs; `alongside`: the
   * caller's data-modifying queries, sent in the same statement (see
   * JobsApi.enqueueMany).
   */
  flush(alongside?: OperationNodeSource[]): Promise<void>;
}

export interface SignalInput {
  event_type: string;
  data: Record<string, unknown>;
  /** Who sent it: `webhook`, `event`, `api`. */
  sender: string;
}

/** Which visit of which gate step: `seq` changes each time the execution reaches the step. */
export interface GateRef {
  execution_id: string;
  step_id: string;
  seq: number;
}

/**
 * The handler of a gate (an APPROVAL step), registered by the plugin that
 * owns it. `open` runs in the transaction that moves the execution to the
 * step: what it writes (the case, its events) commits with the wait. A 4xx
 * error thrown before any statement fails the step with its message.
 * `close` runs in the transaction that cancels the execution.
 */
export interface WorkflowGate {
  open(trx: TenantTransaction, tenantId: string, ref: GateRef, request: ApprovalRequest): Promise<void>;
  close(trx: TenantTransaction, tenantId: string, ref: Omit<GateRef, 'seq'>): Promise<void>;
}

export interface WorkflowsApi {
  /**
   * Starts an execution of the tenant's workflow `name` inside the caller's
   * transaction: the execution row and its first job exist only if it commits.
   * Throws a 404 domain error (code WORKFLOW_NOT_FOUND) for an unknown workflow.
   */
  start(trx: TenantTransaction, tenantId: string, name: string, inputs: Record<string, unknown>, origin: WorkflowOrigin): Promise<StartedExecution>;
  /**
   * Many starts in the caller's transaction with a few round trips in all:
   * the definitions of `names` are read now; `add` checks and queues a start
   * in memory (404 WORKFLOW_NOT_FOUND, before any change, for a workflow not
   * among them); `flush` writes the executions (one insert) and their first
   * jobs (one add_jobs call). Executions and jobs exist only if the caller commits.
   */
  startBatch(trx: TenantTransaction, tenantId: string, names: Iterable<string>): Promise<StartBatch>;
  /**
   * Delivers a signal to a running or waiting execution (it resolves a
   * matching wait or is buffered for a later one). Returns false when the
   * execution does not exist in the tenant or has ended.
   */
  signal(tenantId: string, executionId: string, signal: SignalInput): Promise<boolean>;
  /**
   * Registers the handler of a gate step type (`approval`: APPROVAL steps).
   * Call it in your register, with workflows among your (optional) dependencies.
   */
  registerGate(kind: 'approval', gate: WorkflowGate): void;
  /**
   * Resumes an execution waiting at the gate `ref` with the gate's output
   * (stored under the step's output_key). False when it no longer waits
   * there (cancelled, already resumed): safe to repeat.
   */
  resolveGate(tenantId: string, ref: GateRef, output: Record<string, unknown>): Promise<boolean>;
}

declare module '@hapi/hapi' {
  interface PluginProperties {
    workflows: { api: WorkflowsApi };
  }
}
