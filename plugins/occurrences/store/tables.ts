// kysely types of the occurrences tables (sql/0001_init.sql, sql/0002_supports.sql, sql/0003_send_on_enter.sql), added to the
// platform's Database interface by declaration merging.
import type { ColumnType, Generated } from 'agent-platform/sdk';

/** jsonb: read as the value, written as its JSON text. */
type Json<T> = ColumnType<T, string, string>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type DuplicatePolicy = 'allow' | 'warn' | 'reject';
export type Channel = 'email' | 'sms' | 'note';
export type OccurrenceSource = 'public' | 'staff' | 'form' | 'open311';

export interface OccurrenceSettingsTable {
  tenant_id: string;
  service_area: Json<Record<string, unknown> | null>;
  updated_at: Timestamp;
}

export interface OccurrenceTypesTable {
  id: Generated<number>;
  tenant_id: string;
  name: string;
  code: string;
  form_schema: Json<Record<string, unknown>>;
  duplicate_policy: DuplicatePolicy;
  duplicate_radius_m: number;
  duplicate_window_days: number;
  active: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OccurrenceStatesTable {
  tenant_id: string;
  key: string;
  label: string;
  is_initial: boolean;
  is_final: boolean;
  position: number;
}

export interface OccurrenceTransitionsTable {
  tenant_id: string;
  from_state: string;
  to_state: string;
}

export interface OccurrenceCountersTable {
  tenant_id: string;
  year: number;
  last: number;
}

export interface OccurrencesTable {
  id: Generated<number>;
  tenant_id: string;
  reference: string;
  type_id: number;
  title: string;
  description: string;
  latitude: number;
  longitude: number;
  address: string | null;
  reporter_name: string | null;
  reporter_email: string | null;
  reporter_phone: string | null;
  dynamic_fields: Json<Record<string, unknown>>;
  attachments: Json<Record<string, unknown>[]>;
  state: string;
  duplicate_of: number | null;
  source: OccurrenceSource;
  submitted_by: string | null;
  support_count: Generated<number>;
  search_text: ColumnType<string, never, never>;
  search_vector: ColumnType<string, never, never>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OccurrenceHistoryTable {
  id: Generated<number>;
  tenant_id: string;
  occurrence_id: number;
  from_state: string | null;
  to_state: string;
  comment: string;
  actor: string | null;
  created_at: Timestamp;
}

export interface OccurrenceTemplatesTable {
  id: Generated<number>;
  tenant_id: string;
  name: string;
  channel: Channel;
  subject: string;
  body: string;
  type_ids: ColumnType<number[], number[] | undefined, number[]>;
  states: ColumnType<string[], string[] | undefined, string[]>;
  send_on_enter: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OccurrenceMessagesTable {
  id: Generated<number>;
  tenant_id: string;
  occurrence_id: number;
  template_id: number | null;
  channel: Channel;
  subject: string;
  body: string;
  created_by: string | null;
  created_at: Timestamp;
}

export interface OccurrenceSupportsTable {
  tenant_id: string;
  occurrence_id: number;
  client_hash: string;
  counted_at: Timestamp;
}

declare module 'agent-platform/sdk' {
  interface Database {
    occurrence_settings: OccurrenceSettingsTable;
    occurrence_types: OccurrenceTypesTable;
    occurrence_states: OccurrenceStatesTable;
    occurrence_transitions: OccurrenceTransitionsTable;
    occurrence_counters: OccurrenceCountersTable;
    occurrences: OccurrencesTable;
    occurrence_history: OccurrenceHistoryTable;
    occurrence_templates: OccurrenceTemplatesTable;
    occurrence_messages: OccurrenceMessagesTable;
    occurrence_supports: OccurrenceSupportsTable;
  }
}
