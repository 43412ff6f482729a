// The CloudEvents 1.0 structured-JSON form of a stored event. `tenantid` is an
// extension attribute (lowercase alphanumeric, as the spec requires).
import type { EventRow } from './tables.ts';

export interface CloudEvent {
  specversion: '1.0';
  id: string;
  type: string;
  source: string;
  time: string;
  tenantid: string;
  datacontenttype: 'application/json';
  data: Record<string, unknown>;
}

export function toCloudEvent(row: Pick<EventRow, 'tenant_id' | 'id' | 'type' | 'source' | 'time' | 'data'>): CloudEvent {
  return {
    specversion: '1.0',
    id: row.id,
    type: row.type,
    source: row.source,
    time: row.time.toISOString(),
    tenantid: row.tenant_id,
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
