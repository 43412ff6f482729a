// What the pipelines plugin exposes to other plugins
// (register's `pipelines` dependency): DAG validation, pipelines written by the
// declarative apply and the AI composer, sandbox runs. Others import only
// these types.
import type { TenantTransaction } from 'agent-platform/sdk';

/** One problem of a DAG: a stable code, a message, and the steps at fault. */
export interface DagError {
  /** DAG_CYCLE, MISSING_INPUT, UNKNOWN_DATASET, DATASET_NOT_READABLE, DUPLICATE_OUTPUT, DUPLICATE_STEP, UNKNOWN_TRANSFORM, STEP_INVALID */
  code: string;
  message: string;
  steps?: string[];
}

export interface DagValidation {
  valid: boolean;
  errors: DagError[];
  /** Step ids in a topological order (declaration order among independent steps); the steps of a cycle are left out. */
  order: string[];
}

export interface PipelinesApi {
  /** cycles named by their steps, missing inputs, unknown datasets, two steps writing one output; topological order */
  validateDag(tenantId: string, steps: unknown[]): Promise<DagValidation>;
  findPipelineByName(tenantId: string, name: string): Promise<{ id: string; spec: Record<string, unknown> } | null>;
  /** Creates a pipeline inside the caller's transaction (declarative apply); same validation as REST. */
  createPipeline(trx: TenantTransaction, tenantId: string, spec: Record<string, unknown>): Promise<{ id: string }>;
  updatePipeline(trx: TenantTransaction, tenantId: string, id: string, spec: Record<string, unknown>): Promise<{ id: string }>;
  /** starts a sandbox run; returns the workflow id polled at /pipelines/{id}/sandbox/{workflow_id}/status */
  startSandbox(tenantId: string, pipelineId: string): Promise<{ workflowId: string }>;
}

// What this plugin exposes as `api` (what a plugin declaring it receives in register).
declare module '@hapi/hapi' {
  interface PluginProperties {
    pipelines: { api: PipelinesApi };
  }
}
