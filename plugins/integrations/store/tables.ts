// kysely types of the integrations tables (sql/0001_init.sql,
// 0002_credential_origins.sql), added to the platform's Database interface by
// declaration merging. Each table's columns are declared here only: the
// shapes the plugin passes around (what an import derives, what a sync
// compares, what a call reads) are picked from these rows.
import type { ColumnType, Generated, Selectable } from 'agent-platform/sdk';
import type { AuthConfig, FunctionParameters, RequestShape, SpecFormat, SpecSettings, SecurityUse, Warning } from '../openapi/model.ts';

/** jsonb: read as the value, written as its JSON text. */
type Json<T> = ColumnType<T, string, string>;
type JsonDefault<T> = ColumnType<T, string | undefined, string>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface IntegrationSpecsTable {
  id: string;
  tenant_id: string;
  name: string;
  prefix: string;
  source_kind: 'url' | 'file' | 'inline';
  source_url: string | null;
  document: string | null;
  content_hash: string;
  format: SpecFormat;
  title: string;
  api_version: string;
  base_url: string | null;
  settings: Json<SpecSettings>;
  auth: Json<AuthConfig>;
  auth_value_sealed: string | null;
  auth_value_origin: string | null;
  status: ColumnType<'active' | 'sync_failed', 'active' | 'sync_failed' | undefined, 'active' | 'sync_failed'>;
  warnings: JsonDefault<Warning[]>;
  last_sync_at: NullableTimestamp;
  last_sync_result: ColumnType<string | null, string | null | undefined, string | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IntegrationFunctionsTable {
  id: Generated<number>;
  tenant_id: string;
  spec_id: string;
  name: string;
  operation_key: string;
  operation_id: string | null;
  method: string;
  path: string;
  summary: string;
  description: string;
  description_edited: Generated<boolean>;
  parameters: Json<FunctionParameters>;
  json_schema: Json<Record<string, unknown>>;
  request: Json<RequestShape>;
  security: ColumnType<SecurityUse | null, string | null, string | null>;
  status: ColumnType<'active' | 'removed', 'active' | 'removed' | undefined, 'active' | 'removed'>;
  warnings: JsonDefault<Warning[]>;
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  removed_at: NullableTimestamp;
}

export interface IntegrationClientCredentialsTable {
  tenant_id: string;
  client_id: number;
  service_name: string;
  header: string | null;
  value_sealed: string;
  /** The origin binding the value was entered for (origin-binding.ts); null: none recorded (never sent). */
  bound_origin: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IntegrationSessionCredentialsTable {
  tenant_id: string;
  session_id: string;
  service_name: string;
  header: string | null;
  value_sealed: string;
  bound_origin: string | null;
  owner_sub: string;
  expires_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IntegrationSecretsTable {
  tenant_id: string;
  key: string;
  value_sealed: string;
  /** The bindings of the specs that named the key when the value was entered. */
  bound_origins: ColumnType<string[], string[] | undefined, string[]>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Rows as read (jsonb columns as their values). */
export type SpecRecord = Selectable<IntegrationSpecsTable>;
export type FunctionRecord = Selectable<IntegrationFunctionsTable>;
export type ClientCredentialRecord = Selectable<IntegrationClientCredentialsTable>;
export type SessionCredentialRecord = Selectable<IntegrationSessionCredentialsTable>;
export type SecretRecord = Selectable<IntegrationSecretsTable>;

declare module 'agent-platform/sdk' {
  interface Database {
    integration_specs: IntegrationSpecsTable;
    integration_functions: IntegrationFunctionsTable;
    integration_client_credentials: IntegrationClientCredentialsTable;
    integration_session_credentials: IntegrationSessionCredentialsTable;
    integration_secrets: IntegrationSecretsTable;
  }
}
