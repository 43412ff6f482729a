// What the events plugin exposes to other plugins (register's `events` dependency,
// declared in plugin.ts):
// reading a tenant's stream in order, e.g. the pipelines' platform_events
// source. Others import only these types.

import type { TenantTransaction } from 'agent-platform/sdk';

/** One event of the stream: a CloudEvent in structured JSON, with its number and position. */
export interface StreamEvent {
  id: string;
  type: string;
  source: string;
  time: string;
  data: unknown;
  /** The event's number: unique in the tenant's stream, taken at append (gaps allowed; not the stream's order). */
  seq: number;
  /** Its place in the stream's order, as text that sorts in that order: where a reader that read it goes on. */
  position: string;
  [attribute: string]: unknown;
}

export interface EventsApi {
  /**
   * The tenant's events in stream order after a position (an event's
   * `position`), or after the event with a number (a reader that kept numbers);
   * at most `limit`; `type` exact or `prefix*`. Only events no earlier
   * transaction can land behind are read, so a reader that goes on from the
   * last one's position misses none. With `trx` (a transaction of that tenant
   * the caller holds) they are read there.
   */
  after(tenantId: string, from: string | number, limit: number, type?: string, trx?: TenantTransaction): Promise<StreamEvent[]>;
}

// What this plugin exposes as `api` (what a plugin declaring it receives in register).
declare module '@hapi/hapi' {
  interface PluginProperties {
    events: { api: EventsApi };
  }
}
