// kysely types of core's own tables (sql/): the tenants, which every plugin's
// rows reference, the platform's settings, every plugin's schedules, and `Database`
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

/** Every plugin's schedules (sql/0006_schedules.sql, core/schedules/). */
export interface SchedulesTable {
  tenant_id: string;
  kind: string;
  subject: string;
  cron: string;
  timezone: string;
  missed_policy: 'skip' | 'catch_up_once';
  paused: boolean;
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  next_run_at: Date | null;
  last_run_at: Date | null;
  last_outcome: string | null;
  last_run_id: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface CoreTables {
  tenants: TenantsTable;
  platform_settings: PlatformSettingsTable;
  schedules: SchedulesTable;
}

/**
 * Every table's kysely type: core's, and each plugin's, added by declaration
 * merging on this interface (`declare module 'agent-platform/sdk'`).
 */
export interface Database extends CoreTables {}
