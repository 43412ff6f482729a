// kysely types of the events tables (sql/0001_init.sql to 0006_stream_positions.sql), added to the core
// Database interface by declaration merging.
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { EventFilter } from 'agent-platform/sdk';

/** jsonb: read as the value, written as its JSON text. */
type Json<T> = ColumnType<T, string, string>;
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type TriggerKind = 'reactive' | 'scheduled' | 'deadman';
export type MissedFirePolicy = 'skip' | 'catch_up_once';
export type DispatchOrigin = 'event' | 'schedule' | 'deadman' | 'backfill';
export type DispatchStatus = 'started' | 'deduplicated' | 'failed' | 'missed';

export interface ScheduleConfig {
  cron: string;
  timezone: string;
  note?: string;
  missed_fire_policy: MissedFirePolicy;
}

export interface DeadmanConfig {
  watch_event_type: string;
  within_seconds: number;
  watch_filter?: EventFilter | null;
  after_event_type?: string | null;
  recurring: boolean;
}

/** A transaction id (xid8), read as its decimal text: it may pass 2^53. */
type Xid = ColumnType<string, string | undefined, string>;

export interface EventCursorsTable {
  tenant_id: string;
  /** The position (xid, seq) of the last event dispatched. */
  dispatched_xid: Xid;
  dispatched_seq: ColumnType<number, number | undefined, number>;
  dispatched_at: NullableTimestamp;
}

export interface EventsTable {
  tenant_id: string;
  /** The event's number: unique, taken at append (gaps allowed; not the stream's order). */
  seq: Generated<number>;
  /** The appending transaction's id: the stream's order is (xid, seq). */
  xid: Xid;
  id: string;
  type: string;
  source: string;
  time: Timestamp;
  data: Json<Record<string, unknown>>;
  /** The emit's W3C traceparent while tracing is on (its dispatch continues that trace); not part of the CloudEvent. */
  traceparent: ColumnType<string | null, string | null | undefined, string | null>;
  /** Links of the event chain before this event (the CloudEvents extension `chaindepth`; 0 when no event caused it). */
  chaindepth: ColumnType<number, number | undefined, number>;
}

export interface EventTypesCustomTable {
  tenant_id: string;
  type: string;
  description: ColumnType<string, string | undefined, string>;
  sample_payload: NullableJson<Record<string, unknown>>;
  schema: NullableJson<Record<string, unknown>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TriggersTable {
  tenant_id: string;
  name: string;
  kind: TriggerKind;
  event_type: string;
  event_filter: NullableJson<EventFilter>;
  target_type: ColumnType<'workflow', 'workflow' | undefined, 'workflow'>;
  target_name: string;
  input_mapping: NullableJson<Record<string, unknown>>;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  dedup_key: ColumnType<string | null, string | null | undefined, string | null>;
  dedup_window_seconds: ColumnType<number, number | undefined, number>;
  /** Reactive: the workflow.completed/failed events of executions this trigger started do not fire it. */
  ignore_own_results: ColumnType<boolean, boolean | undefined, boolean>;
  schedule_config: NullableJson<ScheduleConfig>;
  deadman_config: NullableJson<DeadmanConfig>;
  next_fire_at: NullableTimestamp;
  deadman_deadline: NullableTimestamp;
  last_fired_at: NullableTimestamp;
  /** Events numbered at or below it never fire the trigger (triggers activated before stream positions). */
  listen_after_seq: ColumnType<number, number | undefined, number>;
  /** The snapshot of the statement that created or activated it (pg_snapshot text): it listens to events that snapshot could not see. */
  listen_after_snapshot: ColumnType<string | null, string | null | undefined, string | null>;
  /** The person its workflows act for (an Actor, sql/0004); null: the system principal. */
  acts_for: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TriggerDispatchesTable {
  id: Generated<number>;
  tenant_id: string;
  trigger_name: string;
  origin: DispatchOrigin;
  status: DispatchStatus;
  event_id: string | null;
  event_seq: number | null;
  dedup_key: string | null;
  execution_id: string | null;
  error: string | null;
  created_at: Timestamp;
}

export interface TriggerDedupTable {
  tenant_id: string;
  trigger_name: string;
  dedup_key: string;
  window_start: Timestamp;
  event_id: string | null;
}

export interface TriggerBackfillsTable {
  id: string;
  tenant_id: string;
  trigger_name: string;
  request: Json<Record<string, unknown>>;
  result: NullableJson<Record<string, unknown>>;
  error: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  finished_at: NullableTimestamp;
}

declare module 'agent-platform/sdk' {
  interface Database {
    event_cursors: EventCursorsTable;
    events: EventsTable;
    event_types_custom: EventTypesCustomTable;
    triggers: TriggersTable;
    trigger_dispatches: TriggerDispatchesTable;
    trigger_dedup: TriggerDedupTable;
    trigger_backfills: TriggerBackfillsTable;
  }
}

export type TriggerRow = Selectable<TriggersTable>;
export type EventRow = Selectable<EventsTable>;
export type DispatchRow = Selectable<TriggerDispatchesTable>;
export type CustomTypeRow = Selectable<EventTypesCustomTable>;
