// kysely types of core's own tables (sql/0001_core.sql): the tenants, which
// every plugin's rows reference, and the platform's settings, and `Database`
// (every table), to which each plugin adds its own by declaration merging on
// the SDK entry, which re-exports it (`declare module 'agent-platform/sdk' {
// interface Database {…} }`, in its store/tables.ts). The tenancy plugin's tables
// (clients, api_keys, users) are typed in plugins/tenancy/store/tables.ts.
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

export interface CoreTables {
  tenants: TenantsTable;
  platform_settings: PlatformSettingsTable;
}

/**
 * Every table's kysely type: core's, and each plugin's, added by declaration
 * merging on this interface (`declare module 'agent-platform/sdk'`).
 */
export interface Database extends CoreTables {}
