// kysely types of the workflows tables (sql/0001_init.sql), added to the
// core Database interface by declaration merging.
import type { ColumnType, Generated } from 'kysely';
import type { ExecutionState, ExecutionStatus, Step, WorkflowDefinition } from '../../../workflows/engine/index.ts';
import type { WorkflowOrigin } from '../api.ts';

/** jsonb: read as the value, written as its JSON text. */
type Json<T> = ColumnType<T, string, string>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface WorkflowDefinitionsTable {
  id: Generated<number>;
  tenant_id: string;
  name: string;
  description: Generated<string>;
  steps: Json<Step[]>;
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WorkflowExecutionsTable {
  id: Generated<string>;
  tenant_id: string;
  workflow_name: string;
  workflow_version: number;
  definition: Json<WorkflowDefinition>;
  inputs: Json<Record<string, unknown>>;
  status: ColumnType<ExecutionStatus, ExecutionStatus | undefined, ExecutionStatus>;
  state: ColumnType<ExecutionState | null, string | null | undefined, string | null>;
  step_seq: ColumnType<number, number | undefined, number>;
  origin: Json<WorkflowOrigin>;
  error: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

declare module 'agent-platform/sdk' {
  interface Database {
    workflow_definitions: WorkflowDefinitionsTable;
    workflow_executions: WorkflowExecutionsTable;
  }
}
