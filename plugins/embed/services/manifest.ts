// The public manifest of a client: from
// the in-process cache (no database read in the common case), for an
// allowlisted Origin only, rate limited per client key across processes
// (core.rateLimits: one upsert per read).
import { requestOrigin, type CoreServices, type Request } from 'agent-platform/sdk';
import type { ClientCache, EmbedClient } from '../cache/client-cache.ts';
import type { EmbedOptions } from '../options.ts';
import { enabledClient, requireAllowed, requireOrigin } from '../access.ts';

export function createManifestService(core: Pick<CoreServices, 'rateLimits'>, options: EmbedOptions, cache: ClientCache) {
  const limiter = core.rateLimits.limiter('embed.manifest', {
    ratePerSecond: options.manifestRatePerSecond, burst: options.manifestBurst,
    message: (seconds) => `Too many manifest reads for this client: retry in ${seconds} s`,
  });
  // A refusal of the fast path, which the route then answers without taking a second token.
  const refused = new WeakMap<Request, unknown>();
  const answer = async (found: EmbedClient | null, clientKey: string, originHeader: unknown) => {
    const origin = requireOrigin(originHeader);
    const client = enabledClient(found, clientKey);
    requireAllowed(client, origin);
    await limiter.take(clientKey);
    return { manifest: client.manifest, origin };
  };
  return {
    /** The manifest and the origin it may be shown to (Access-Control-Allow-Origin). */
    async read(clientKey: string, originHeader: unknown, request?: Request) {
      if (request && refused.has(request)) throw refused.get(request);
      return answer(await cache.byKey(clientKey), clientKey, originHeader);
    },
    /**
     * The same answer without a database read, for a client the cache holds, enabled,
     * with that origin allowed (the page-load hot path, origins/manifest-fast-path.ts);
     * undefined for anything else, which the route answers.
     */
    async readCached(request: Request, clientKey: string, originHeader: unknown) {
      const client = cache.peek(clientKey);
      const origin = requestOrigin(originHeader);
      if (!client?.enabled || !origin || !client.allowedOrigins.has(origin)) return undefined;
      try {
        return await answer(client, clientKey, originHeader);
      } catch (err) {
        refused.set(request, err);
        throw err;
      }
    },
  };
}

export type ManifestService = ReturnType<typeof createManifestService>;
