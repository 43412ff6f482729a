// kysely types of the forms tables (sql/0001_init.sql), added to the
// platform's Database interface by declaration merging.
import type { ColumnType, Generated } from 'agent-platform/sdk';

/** jsonb: read as the value, written as its JSON text. */
type Json<T> = ColumnType<T, string, string>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface FormsDefinitionsTable {
  id: Generated<string>;
  tenant_id: string;
  name: string;
  description: Generated<string>;
  latest_version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface FormsDefinitionVersionsTable {
  tenant_id: string;
  definition_id: string;
  version: number;
  schema: Json<Record<string, unknown>>;
  created_by: string | null;
  created_at: Timestamp;
}

export interface FormsUseCasesTable {
  id: Generated<string>;
  tenant_id: string;
  name: string;
  definition_id: string;
  form_version: number | null;
  target_model: string;
  target_config: Json<Record<string, unknown>>;
  access: 'public' | 'authenticated';
  active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface FormsFieldBindingsTable {
  tenant_id: string;
  use_case_id: string;
  position: number;
  source_field_path: string;
  target_field_path: string;
  transform: 'NONE' | 'TO_INT' | 'LOOKUP' | 'GEO_PARSE';
  transform_params: Json<Record<string, unknown>>;
}

export interface FormsSubmissionsTable {
  id: Generated<string>;
  seq: ColumnType<string, never, never>;
  tenant_id: string;
  use_case_id: string;
  definition_id: string;
  form_version: number;
  payload_json: Json<Record<string, unknown>>;
  municipality: string | null;
  submitted_by: string | null;
  created_at: Timestamp;
  redacted_at: NullableTimestamp;
}

export interface FormsFilesTable {
  id: Generated<string>;
  tenant_id: string;
  token_hash: string;
  uploaded_by: string;
  name: string;
  content_type: string;
  size: number;
  content: Buffer;
  expires_at: Date | string;
  created_at: Timestamp;
  consumed_at: NullableTimestamp;
  submission_id: string | null;
  payload_path: string | null;
  /** Set when another plugin claimed the file (FormsApi.claimFiles): that plugin and its object's id. */
  owner_plugin: string | null;
  owner_id: string | null;
  redacted_at: NullableTimestamp;
}

export interface FormsHydrationsTable {
  tenant_id: string;
  submission_id: string;
  attempt: number;
  status: 'hydrated' | 'failed';
  target_model: string;
  object_id: string | null;
  object: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  errors: Json<{ field: string; message: string }[]>;
  created_by: string | null;
  created_at: Timestamp;
}

export interface FormsRedactionsTable {
  id: Generated<number>;
  tenant_id: string;
  submission_id: string;
  redacted_by: string;
  reason: string;
  fields: Json<string[]>;
  files: number;
  created_at: Timestamp;
}

declare module 'agent-platform/sdk' {
  interface Database {
    forms_definitions: FormsDefinitionsTable;
    forms_definition_versions: FormsDefinitionVersionsTable;
    forms_use_cases: FormsUseCasesTable;
    forms_field_bindings: FormsFieldBindingsTable;
    forms_submissions: FormsSubmissionsTable;
    forms_files: FormsFilesTable;
    forms_hydrations: FormsHydrationsTable;
    forms_redactions: FormsRedactionsTable;
  }
}
