// kysely types of the sources plugin's tables (sql/0001_init.sql), added to
// the SDK's Database by declaration merging.
import type { ColumnType, Generated } from 'agent-platform/sdk';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | undefined, string>;

export type SyncMode = 'full_refresh' | 'incremental';
export type StreamWriteMode = 'overwrite' | 'append' | 'append_dedup';

export interface PipelineSourcesTable {
  id: Generated<string>;
  tenant_id: string;
  name: string;
  pattern_id: string;
  source_config: Json<Record<string, unknown>>;
  credential_ref: string | null;
  state: ColumnType<'ready' | 'active', 'ready' | 'active' | undefined, 'ready' | 'active'>;
  created_by: string | null;
  /** The person the source's function calls act for (an Actor); null: created_by's. */
  acts_for: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** Runtime state of a stream: how far its incremental sync got. */
export interface StreamState {
  cursor?: string | null;
  last_run_id?: string;
  last_snapshot_id?: string | null;
}

export interface PipelineStreamsTable {
  id: Generated<string>;
  tenant_id: string;
  source_id: string;
  name: string;
  namespace: string | null;
  schema: Json<Record<string, unknown>>;
  supported_sync_modes: ColumnType<SyncMode[], SyncMode[] | undefined, SyncMode[]>;
  sync_mode: ColumnType<SyncMode, SyncMode | undefined, SyncMode>;
  write_mode: ColumnType<StreamWriteMode, StreamWriteMode | undefined, StreamWriteMode>;
  cursor_field: string | null;
  primary_key: ColumnType<string[], string[] | undefined, string[]>;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  destination: string;
  state: Json<StreamState>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface PipelineCredentialsTable {
  tenant_id: string;
  ref: string;
  name: string;
  kind: string;
  field_names: string[];
  sealed: string;
  version: ColumnType<number, number | undefined, number>;
  status: ColumnType<'active' | 'revoked', 'active' | 'revoked' | undefined, 'active' | 'revoked'>;
  rotated_at: Date | null;
  created_at: CreatedAt;
}

declare module 'agent-platform/sdk' {
  interface Database {
    pipeline_sources: PipelineSourcesTable;
    pipeline_streams: PipelineStreamsTable;
    pipeline_credentials: PipelineCredentialsTable;
  }
}

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'partial' | 'failed';
type Int8 = ColumnType<number, number | undefined, number>;

export interface PipelineDiscoveriesTable {
  workflow_id: Generated<string>;
  tenant_id: string;
  source_id: string;
  apply: ColumnType<boolean, boolean | undefined, boolean>;
  status: ColumnType<'queued' | 'running' | 'succeeded' | 'failed', 'queued' | undefined, 'running' | 'succeeded' | 'failed'>;
  streams: ColumnType<unknown[] | null, string | undefined, string>;
  error: string | null;
  created_at: CreatedAt;
  finished_at: Date | null;
}

export interface PipelineSyncRunsTable {
  id: Generated<string>;
  tenant_id: string;
  source_id: string;
  workflow_id: string | null;
  trigger: ColumnType<'manual' | 'schedule', 'manual' | 'schedule' | undefined, never>;
  status: ColumnType<RunStatus, RunStatus | undefined, RunStatus>;
  requested_streams: string[] | null;
  attempts: Int8;
  rows_read: Int8;
  rows_added: Int8;
  rows_removed: Int8;
  error: string | null;
  created_by: string | null;
  created_at: CreatedAt;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface PipelineSyncRunStreamsTable {
  tenant_id: string;
  run_id: string;
  stream_id: string;
  stream_name: string;
  namespace: string | null;
  destination: string;
  sync_mode: string;
  write_mode: string;
  status: ColumnType<'pending' | 'succeeded' | 'failed', 'pending' | undefined, 'pending' | 'succeeded' | 'failed'>;
  rows_read: Int8;
  rows_added: Int8;
  rows_removed: Int8;
  type_errors: Int8;
  snapshot_id: ColumnType<string | null, string | null | undefined, string | null>;
  snapshot_created: ColumnType<boolean, boolean | undefined, boolean>;
  cursor_before: string | null;
  cursor_after: string | null;
  error: string | null;
  finished_at: Date | null;
}

export interface PipelineRunLogsTable {
  id: Generated<number>;
  tenant_id: string;
  run_id: string;
  at: CreatedAt;
  level: 'info' | 'warn' | 'error';
  message: string;
}

declare module 'agent-platform/sdk' {
  interface Database {
    pipeline_discoveries: PipelineDiscoveriesTable;
    pipeline_sync_runs: PipelineSyncRunsTable;
    pipeline_sync_run_streams: PipelineSyncRunStreamsTable;
    pipeline_run_logs: PipelineRunLogsTable;
  }
}

export interface PipelinePatternRegistrationsTable {
  id: string;
  base_pattern: string;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  defaults: ColumnType<Record<string, unknown>, string | undefined, string>;
  managed_by: 'register' | 'reconcile';
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

declare module 'agent-platform/sdk' {
  interface Database {
    pipeline_pattern_registrations: PipelinePatternRegistrationsTable;
  }
}

export interface PipelinePatternWebhookIdsTable {
  id: string;
  expires_at: Date;
}

declare module 'agent-platform/sdk' {
  interface Database {
    pipeline_pattern_webhook_ids: PipelinePatternWebhookIdsTable;
  }
}

export interface PipelineSourceFilesTable {
  id: Generated<string>;
  tenant_id: string;
  name: string;
  content_type: string;
  size_bytes: ColumnType<number, number, number>;
  content: Buffer;
  created_by: string | null;
  created_at: CreatedAt;
}

declare module 'agent-platform/sdk' {
  interface Database {
    pipeline_source_files: PipelineSourceFilesTable;
  }
}
