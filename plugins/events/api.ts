// What the events plugin exposes to other plugins (register's `events` dependency,
// declared in plugin.ts):
// reading a tenant's stream in order, e.g. the pipelines' platform_events
// source. Others import only these types.

import type { TenantTransaction } from 'agent-platform/sdk';

/** One event of the stream: a CloudEvent in structured JSON, with its position. */
export interface StreamEvent {
  id: string;
  type: string;
  source: string;
  time: string;
  data: unknown;
  /** Gap-free position in the tenant's stream. */
  seq: number;
  [attribute: string]: unknown;
}

export interface EventsApi {
  /**
   * The tenant's events after a sequence number, oldest first (at most `limit`; `type` exact or `prefix*`).
   * With `trx` (a transaction of that tenant the caller holds) they are read there.
   */
  after(tenantId: string, afterSeq: number, limit: number, type?: string, trx?: TenantTransaction): Promise<StreamEvent[]>;
}

// What this plugin exposes as `api` (what a plugin declaring it receives in register).
declare module '@hapi/hapi' {
  interface PluginProperties {
    events: { api: EventsApi };
  }
}
