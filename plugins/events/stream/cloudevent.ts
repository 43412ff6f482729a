// The CloudEvents 1.0 structured-JSON form of a stored event. `tenantid` and
// `chaindepth` are extension attributes (lowercase alphanumeric, as
// CloudEvents requires); `chaindepth` is there only when an event chain led to the event.
import type { EventRow } from '../store/tables.ts';

export interface CloudEvent {
  specversion: '1.0';
  id: string;
  type: string;
  source: string;
  time: string;
  tenantid: string;
  /** How many events led to this one through workflows they started (absent: none). */
  chaindepth?: number;
  datacontenttype: 'application/json';
  data: Record<string, unknown>;
}

export function toCloudEvent(row: Pick<EventRow, 'tenant_id' | 'id' | 'type' | 'source' | 'time' | 'data'> & { chaindepth?: number }): CloudEvent {
  return {
    specversion: '1.0',
    id: row.id,
    type: row.type,
    source: row.source,
    time: row.time.toISOString(),
    tenantid: row.tenant_id,
    ...(row.chaindepth ? { chaindepth: row.chaindepth } : {}),
    datacontenttype: 'application/json',
    data: row.data,
  };
}

/** A stream event: the envelope plus its place in the stream. */
export interface StreamEvent {
  seq: number;
  event: CloudEvent;
}

/**
 * CloudEvents `source` is a non-empty URI-reference: no whitespace or control
 * characters, and parseable relative to a base.
 */
export function isUriReference(value: string): boolean {
  if (!value || /[\s\u0000-\u001f\u007f]/.test(value)) return false;
  try {
    new URL(value, 'http://base.invalid/');
    return true;
  } catch {
    return false;
  }
}
