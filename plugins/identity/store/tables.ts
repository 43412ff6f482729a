// kysely types of the identity plugin's tables (sql/0001_init.sql), added to
// the SDK's Database by declaration merging.
import type { ColumnType, Generated } from 'agent-platform/sdk';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Json<T> = ColumnType<T, string, string>;

export interface IdentityPoliciesTable {
  id: Generated<string>;
  tenant_id: string;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  current_version: ColumnType<number, number | undefined, number>;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  deleted_at: ColumnType<Date | null, never, Date | string>;
}

export interface IdentityPolicyVersionsTable {
  tenant_id: string;
  policy_id: string;
  version: number;
  spec: Json<Record<string, unknown>>;
  fingerprint: string;
  created_by: string | null;
  created_at: CreatedAt;
}

export type RegistrySource = 'registered' | 'discovered' | 'library';

export interface SchemaRegistryTable {
  id: Generated<string>;
  tenant_id: string;
  subject: string;
  version: number;
  domain: string | null;
  description: ColumnType<string, string | undefined, string>;
  schema: Json<Record<string, unknown>>;
  fingerprint: string;
  source: RegistrySource;
  dataset_id: string | null;
  created_by: string | null;
  created_at: CreatedAt;
}

declare module 'agent-platform/sdk' {
  interface Database {
    identity_policies: IdentityPoliciesTable;
    identity_policy_versions: IdentityPolicyVersionsTable;
    schema_registry: SchemaRegistryTable;
  }
}
