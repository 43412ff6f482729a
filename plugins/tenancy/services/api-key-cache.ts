// Principals of API keys resolved in this process, by SHA-256 of the key, for
// API_KEY_CACHE_MS: a widget sends the same key on every request, and each
// lookup is a transaction. Only keys found active are kept. A revoke or a
// client's deletion empties the cache of every process at once: the service
// publishes on core.invalidation's channel `tenancy.api-keys`, and each
// process clears its cache on the message; while that channel is down, a
// change takes effect within API_KEY_CACHE_MS.
import { hash } from 'node:crypto';
import type { Principal } from 'agent-platform/sdk';

export const API_KEY_CACHE_MS = 5_000;
const MAX_ENTRIES = 10_000;
export const API_KEYS_CHANNEL = 'tenancy.api-keys';

export class ApiKeyCache {
  private readonly entries = new Map<string, { principal: Principal; until: number }>();
  /** Bumped by clear(): a lookup that began before a clear does not fill the cache. */
  private generation = 0;

  /** The key's principal, or the lookup's (kept when the key was found). */
  async resolve(key: string, lookup: () => Promise<Principal | undefined>): Promise<Principal | undefined> {
    const digest = hash('sha256', key, 'base64');
    const known = this.entries.get(digest);
    const now = Date.now();
    if (known && known.until > now) return known.principal;
    if (known) this.entries.delete(digest);
    // A revoke while the lookup runs must not let its answer into the cache afterwards.
    const generation = this.generation;
    const principal = await lookup();
    if (principal && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(digest, { principal, until: now + API_KEY_CACHE_MS });
    }
    return principal;
  }

  /** Forgets every key (a key was revoked or a client deleted). */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
