// A short-lived, in-process cache of what a call reads (the function, its
// spec's auth and the sealed credentials for one session and client), so
// that a warm call costs no database round trip: a tenant transaction is
// three of them (~0.6 ms on loopback), most of an imported call's overhead.
//
// Freshness: this process's own changes (imports, syncs, edits, credentials,
// secrets) clear the tenant's entries at once; changes made by another
// process (another server instance, the CLI) are seen after at most
// `maxAgeMs`. A read that overlaps a clearing is not stored (per-tenant
// generation), and a session credential past its expiry is never served.
// Values stay sealed here; they are opened per call.
import type { CallRow } from '../store/call.ts';

export interface CallRowCacheOptions {
  /** How long an entry is served; 0 disables the cache. */
  maxAgeMs: number;
  maxEntries?: number;
  now?: () => number;
}

export interface CallRowCache {
  load(tenantId: string, name: string, sessionId: string | null, clientId: number | null, read: () => Promise<CallRow | undefined>): Promise<CallRow | undefined>;
  /** Forget a tenant's entries (after a change to its specs, functions or credentials). */
  invalidate(tenantId: string): void;
}

interface Entry {
  tenantId: string;
  row: CallRow;
  storedAt: number;
}

export function createCallRowCache({ maxAgeMs, maxEntries = 10_000, now = Date.now }: CallRowCacheOptions): CallRowCache {
  const entries = new Map<string, Entry>();
  const generations = new Map<string, number>();
  const generationOf = (tenantId: string) => generations.get(tenantId) ?? 0;

  const usable = (entry: Entry, at: number) => {
    if (at - entry.storedAt >= maxAgeMs) return false;
    const expires = entry.row.session_credential?.expires_at;
    return !expires || new Date(expires).getTime() > at;
  };

  return {
    async load(tenantId, name, sessionId, clientId, read) {
      if (maxAgeMs <= 0) return read();
      const key = `${tenantId}\u0000${name}\u0000${sessionId ?? ''}\u0000${clientId ?? ''}`;
      const found = entries.get(key);
      if (found && usable(found, now())) return found.row;
      entries.delete(key);
      const generation = generationOf(tenantId);
      const startedAt = now();
      const row = await read();
      // Not stored when the tenant changed during the read: it may predate the change.
      if (row && generationOf(tenantId) === generation) {
        entries.set(key, { tenantId, row, storedAt: startedAt });
        if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      }
      return row;
    },
    invalidate(tenantId) {
      generations.set(tenantId, generationOf(tenantId) + 1);
      for (const [key, entry] of entries) if (entry.tenantId === tenantId) entries.delete(key);
    },
  };
}
