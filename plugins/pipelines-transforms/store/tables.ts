// kysely types of the transforms plugin's tables (sql/0001_init.sql), added to
// the SDK's Database by declaration merging. Run ids and snapshot ids are
// bigint: read as text (they pass 2^53).
import type { ColumnType, Generated } from 'agent-platform/sdk';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string | undefined, string>;
type BigId = ColumnType<string, never, never>;

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
export type GenericRunStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled';
export type RunTrigger = 'manual' | 'schedule' | 'pipeline' | 'execute' | 'materialize';

export interface TransformsTable {
  id: Generated<string>;
  tenant_id: string;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  sql: string;
  parameters: Json<Record<string, unknown>>;
  output_dataset: string;
  materialization: 'table' | 'incremental';
  unique_key: ColumnType<string[], string[] | undefined, string[]>;
  status: ColumnType<'active' | 'archived', 'active' | 'archived' | undefined, 'active' | 'archived'>;
  inputs: ColumnType<string[], string[] | undefined, string[]>;
  columns: Json<{ name: string; type: string }[]>;
  analysis_errors: Json<{ code: string; message: string }[]>;
  hydrated_at: NullableTimestamp;
  origin: Json<Record<string, unknown> | null>;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface TransformRunsTable {
  id: BigId;
  tenant_id: string;
  transform_id: string;
  orchestrator_run_id: string | null;
  pipeline_run_id: string | null;
  trigger: RunTrigger;
  status: ColumnType<RunStatus, RunStatus | undefined, RunStatus>;
  parameters: Json<Record<string, unknown>>;
  output_dataset: string;
  compiled_sql: string | null;
  rows: ColumnType<string | null, number | null | undefined, number | null>;
  snapshot_id: ColumnType<string | null, string | null | undefined, string | null>;
  columns: Json<{ name: string; type: string }[] | null>;
  error: Json<{ code: string; message: string } | null>;
  logs: Json<{ at: string; level: string; message: string }[]>;
  backend_pid: number | null;
  session_tag: string | null;
  cancel_requested: ColumnType<boolean, boolean | undefined, boolean>;
  attempts: ColumnType<number, number | undefined, number>;
  created_by: string | null;
  created_at: CreatedAt;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

export interface TransformGenericRunsTable {
  id: BigId;
  tenant_id: string;
  triggering_transform_id: string | null;
  orchestrator_run_id: string | null;
  job_name: string | null;
  status: ColumnType<GenericRunStatus, GenericRunStatus | undefined, GenericRunStatus>;
  message: string | null;
  metadata: Json<Record<string, unknown>>;
  created_by: string | null;
  created_at: CreatedAt;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

export interface TransformArtifactsTable {
  id: Generated<string>;
  tenant_id: string;
  transform_id: string;
  run_id: string;
  kind: 'compiled_sql' | 'logs' | 'output_summary';
  name: string;
  content_type: string;
  content: string;
  created_at: CreatedAt;
}

export interface TransformSqlLibraryTable {
  id: string;
  name: string;
  description: string;
  category: string;
  sql_types: string[];
  sql: string;
  parameters: Json<Record<string, unknown>>;
  checksum: string;
  updated_at: Timestamp;
}

export interface TransformPatternsTable {
  id: string;
  name: string;
  description: string;
  category: string;
  parameters_schema: Json<Record<string, unknown>>;
  checksum: string;
  updated_at: Timestamp;
}

declare module 'agent-platform/sdk' {
  interface Database {
    transforms: TransformsTable;
    transform_runs: TransformRunsTable;
    transform_generic_runs: TransformGenericRunsTable;
    transform_artifacts: TransformArtifactsTable;
    transform_sql_library: TransformSqlLibraryTable;
    transform_patterns: TransformPatternsTable;
  }
}
