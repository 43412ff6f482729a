// kysely types of core's own tables (sql/0001_core.sql): the tenants, which
// every plugin's rows reference, and the platform's settings. `Database`
// (every table) is declared in the SDK entry, where each plugin adds its own
// by declaration merging (`declare module 'agent-platform/sdk' { interface
// Database {…} }`, in its tables.ts): TypeScript merges augmentations only
// into the module that declares an interface, not into one re-exporting it.
// The tenancy plugin's tables (clients, api_keys, users) are typed in
// plugins/tenancy/tables.ts.
import type { ColumnType } from 'kysely';

export interface TenantsTable {
  id: string;
  display_name: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface PlatformSettingsTable {
  key: string;
  value: string;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export type { Database } from '../sdk/index.ts';

export interface CoreTables {
  tenants: TenantsTable;
  platform_settings: PlatformSettingsTable;
}
