// Response shapes of stored rows (REST, CLI; GraphQL maps them to camelCase).
import { toCloudEvent } from '../stream/cloudevent.ts';
import type { DispatchRow, EventRow, TriggerRow } from '../store/tables.ts';
import { encodePosition, isPast, type StreamPosition } from '../stream/position.ts';

export function triggerView(row: TriggerRow) {
  return {
    name: row.name,
    kind: row.kind,
    event_type: row.event_type,
    event_filter: row.event_filter,
    target_type: row.target_type,
    target_name: row.target_name,
    input_mapping: row.input_mapping,
    active: row.active,
    dedup_key: row.dedup_key,
    dedup_window_seconds: row.dedup_window_seconds,
    ignore_own_results: row.ignore_own_results,
    schedule_config: row.schedule_config,
    deadman_config: row.deadman_config,
    next_fire_at: row.next_fire_at,
    deadman_deadline: row.deadman_deadline,
    last_fired_at: row.last_fired_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export type TriggerView = ReturnType<typeof triggerView>;

/** A CloudEvent with its number, its place in the stream and whether the dispatcher has passed it. */
export function streamEventView(row: EventRow, cursor: StreamPosition) {
  return { ...toCloudEvent(row), seq: row.seq, position: encodePosition(row), dispatched: isPast(row, cursor) };
}

export type StreamEventView = ReturnType<typeof streamEventView>;

export function dispatchView(row: DispatchRow) {
  return {
    id: row.id,
    trigger_name: row.trigger_name,
    origin: row.origin,
    status: row.status,
    event_id: row.event_id,
    event_seq: row.event_seq,
    dedup_key: row.dedup_key,
    execution_id: row.execution_id,
    error: row.error,
    created_at: row.created_at,
  };
}
