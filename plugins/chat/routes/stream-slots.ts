// Open SSE streams per tenant, counted in this process: a tenant past
// CHAT_MAX_CONCURRENT_STREAMS_PER_TENANT gets 429 before anything starts.
// Streams are sockets of this process, so the count is per process (N
// processes hold up to N × the limit); running turns, which share the model
// and the database, are counted across processes (store/turn-start.ts).
import { domainError } from 'agent-platform/sdk';

/** Seconds a refused client should wait: streams end with their turn, which is usually seconds away. */
export const STREAM_RETRY_AFTER_SECONDS = 5;

export class StreamSlots {
  private readonly open = new Map<string, number>();
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Takes a slot for the tenant (429 when none is free); returns its release, which may be called any number of times. */
  take(tenantId: string): () => void {
    const used = this.open.get(tenantId) ?? 0;
    if (used >= this.limit) {
      const error = domainError(429, `Too many open chat streams for this tenant (limit ${this.limit}); retry later`, 'STREAM_LIMIT_EXCEEDED');
      error.output.headers['Retry-After'] = String(STREAM_RETRY_AFTER_SECONDS);
      throw error;
    }
    this.open.set(tenantId, used + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(tenantId) ?? 1) - 1;
      if (left <= 0) this.open.delete(tenantId);
      else this.open.set(tenantId, left);
    };
  }

  count(tenantId: string): number {
    return this.open.get(tenantId) ?? 0;
  }
}
