// The public manifest of a client: from
// the in-process cache (no database round trip in the common case), for an
// allowlisted Origin only, rate limited per client key in this process.
import { RateLimiter, requestOrigin } from 'agent-platform/sdk';
import type { ClientCache, EmbedClient } from '../cache/client-cache.ts';
import type { EmbedOptions } from '../options.ts';
import { enabledClient, requireAllowed, requireOrigin } from '../access.ts';

export function createManifestService(options: EmbedOptions, cache: ClientCache) {
  const limiter = new RateLimiter({
    ratePerSecond: options.manifestRatePerSecond, burst: options.manifestBurst,
    message: (seconds) => `Too many manifest reads for this client: retry in ${seconds} s`,
  });
  const answer = (found: EmbedClient | null, clientKey: string, originHeader: unknown) => {
    const origin = requireOrigin(originHeader);
    const client = enabledClient(found, clientKey);
    requireAllowed(client, origin);
    limiter.take(clientKey);
    return { manifest: client.manifest, origin };
  };
  return {
    /** The manifest and the origin it may be shown to (Access-Control-Allow-Origin). */
    async read(clientKey: string, originHeader: unknown) {
      return answer(await cache.byKey(clientKey), clientKey, originHeader);
    },
    /**
     * The same answer without waiting, for a client the cache holds, enabled,
     * with that origin allowed (the page-load hot path, origins/manifest-fast-path.ts);
     * undefined for anything else, which the route answers.
     */
    readCached(clientKey: string, originHeader: unknown) {
      const client = cache.peek(clientKey);
      const origin = requestOrigin(originHeader);
      if (!client?.enabled || !origin || !client.allowedOrigins.has(origin)) return undefined;
      return answer(client, clientKey, originHeader);
    },
  };
}

export type ManifestService = ReturnType<typeof createManifestService>;
