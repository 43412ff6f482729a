// What the workflows plugin exposes to other plugins (server.plugins.workflows.api):
// the events plugin starts workflows from triggers, the webhooks plugin
// delivers signed-resume signals.
import type { TenantTransaction } from 'agent-platform/sdk';

export interface WorkflowOrigin {
  type: 'api' | 'trigger' | 'schedule' | 'deadman' | 'backfill' | 'workflow';
  /** e.g. the trigger name, or the event id that caused the start. */
  id?: string;
  /**
   * Started for a stream event (a trigger, a backfill): that event's chain
   * depth. The execution's own events are one link deeper (EVENTS_MAX_CHAIN_DEPTH).
   */
  chaindepth?: number;
}

export interface StartedExecution {
  execution_id: string;
  workflow_name: string;
  status: string;
}

export interface StartBatch {
  add(name: string, inputs: Record<string, unknown>, origin: WorkflowOrigin): StartedExecution;
  flush(): Promise<void>;
}

export interface SignalInput {
  event_type: string;
  data: Record<string, unknown>;
  /** Who sent it: `webhook`, `event`, `api`. */
  sender: string;
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
}

declare module '@hapi/hapi' {
  interface PluginProperties {
    workflows: { api: WorkflowsApi };
  }
}
