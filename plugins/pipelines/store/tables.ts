// kysely types of the pipelines plugin's tables (sql/0001_init.sql), added to
// the SDK's Database by declaration merging.
import type { ColumnType, Generated } from 'agent-platform/sdk';
import type { StepSpec } from '../dag/types.ts';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | undefined, string>;

export type PipelineState = 'draft' | 'validated' | 'active' | 'paused';
export type RunStatus = 'running' | 'succeeded' | 'failed' | 'cancelled';
export type StepStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'skipped' | 'cancelled';
export type RunKind = 'sandbox' | 'production';
export type RunTrigger = 'manual' | 'schedule' | 'sensor' | 'orchestrator';

export interface PipelinesTable {
  id: Generated<string>;
  tenant_id: string;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  steps: Json<StepSpec[]>;
  schedule_cron: string | null;
  schedule_timezone: ColumnType<string, string | undefined, string>;
  sensor: ColumnType<boolean, boolean | undefined, boolean>;
  state: ColumnType<PipelineState, PipelineState | undefined, PipelineState>;
  active_version: number | null;
  activated_at: Date | null;
  next_run_at: Date | null;
  sensor_pending: ColumnType<{ snapshots: unknown[] } | null, string | null | undefined, string | null>;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface PipelineVersionsTable {
  tenant_id: string;
  pipeline_id: string;
  version: number;
  steps: Json<StepSpec[]>;
  fingerprint: string;
  note: ColumnType<string, string | undefined, never>;
  created_by: string | null;
  created_at: CreatedAt;
}

export interface PipelineRunsTable {
  id: Generated<string>;
  tenant_id: string;
  pipeline_id: string;
  version: number;
  kind: RunKind;
  trigger: RunTrigger;
  trigger_detail: Json<Record<string, unknown>>;
  status: ColumnType<RunStatus, RunStatus | undefined, RunStatus>;
  error: string | null;
  created_by: string | null;
  started_at: CreatedAt;
  finished_at: Date | null;
}

export interface PipelineRunStepsTable {
  tenant_id: string;
  run_id: string;
  step_id: string;
  position: number;
  depends_on: ColumnType<string[], string[] | undefined, string[]>;
  status: ColumnType<StepStatus, StepStatus | undefined, StepStatus>;
  output_dataset: string | null;
  snapshot_id: ColumnType<string | null, string | null | undefined, string | null>;
  rows: ColumnType<string | null, number | null | undefined, number | null>;
  columns: ColumnType<{ name: string; type: string }[] | null, string | null | undefined, string | null>;
  sample_rows: ColumnType<Record<string, unknown>[] | null, string | null | undefined, string | null>;
  error: string | null;
  sql_ms: number | null;
  started_at: Date | null;
  finished_at: Date | null;
  backend_pid: number | null;
  session_tag: string | null;
}

export interface PipelineSensorCursorsTable {
  tenant_id: string;
  last_seq: ColumnType<string, number | string | undefined, number | string>;
  /** The stream position of the last event read (sql/0005); null: last_seq is the cursor. */
  last_position: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: Timestamp;
}

export interface PipelineWorkflowsTable {
  id: Generated<string>;
  tenant_id: string;
  kind: 'schema-match' | 'transform';
  status: RunStatus;
  input: Json<Record<string, unknown>>;
  result: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  error: string | null;
  created_by: string | null;
  created_at: CreatedAt;
  finished_at: Date | null;
}

declare module 'agent-platform/sdk' {
  interface Database {
    pipelines: PipelinesTable;
    pipeline_versions: PipelineVersionsTable;
    pipeline_runs: PipelineRunsTable;
    pipeline_run_steps: PipelineRunStepsTable;
    pipeline_sensor_cursors: PipelineSensorCursorsTable;
    pipeline_workflows: PipelineWorkflowsTable;
  }
}
