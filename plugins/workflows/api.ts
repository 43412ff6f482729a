// What the workflows plugin exposes to other plugins (server.plugins.workflows.api):
// the events plugin starts workflows from triggers, the webhooks plugin
// delivers signed-resume signals.
import type { TenantTransaction } from 'agent-platform/sdk';

export interface WorkflowOrigin {
  type: 'api' | 'trigger' | 'schedule' | 'deadman' | 'backfill' | 'workflow';
  /** e.g. the trigger name, or the event id that caused the start. */
  id?: string;
}

export interface StartedExecution {
  execution_id: string;
  workflow_name: string;
  status: string;
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
