// Table types for kysely: core's tables. `Database` (every table) is declared
// in the SDK entry, where each plugin adds its own by declaration merging
// (`declare module 'agent-platform/sdk' { interface Database {…} }`, next to
// the SQL migration that creates them): TypeScript merges augmentations only
// into the module that declares an interface, not into one re-exporting it.
import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface TenantsTable {
  id: string;
  display_name: string;
  created_at: CreatedAt;
}

export interface PlatformSettingsTable {
  key: string;
  value: string;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface ClientsTable {
  id: Generated<number>;
  tenant_id: string;
  client_key: string;
  name: string;
  created_at: CreatedAt;
}

export interface ApiKeysTable {
  id: Generated<number>;
  tenant_id: string;
  client_id: number;
  name: string;
  key_prefix: string;
  key_hash: string;
  created_at: CreatedAt;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface UsersTable {
  sub: string;
  display_name: string;
  organizations: ColumnType<Record<string, { roles: string[] }>, string, string>;
  service_account: boolean;
  secret_hash: string | null;
  created_at: CreatedAt;
}

export type { Database } from '../sdk/index.ts';

export interface CoreTables {
  tenants: TenantsTable;
  platform_settings: PlatformSettingsTable;
  clients: ClientsTable;
  api_keys: ApiKeysTable;
  users: UsersTable;
}
