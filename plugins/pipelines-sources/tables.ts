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
