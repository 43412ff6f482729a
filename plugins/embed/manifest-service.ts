// The public manifest of a client (spec embed-chat 2.2, errors of 7): from
// the in-process cache (no database round trip in the common case), for an
// allowlisted Origin only, rate limited per client key in this process.
import { RateLimiter } from 'agent-platform/sdk';
import type { ClientCache } from './client-cache.ts';
import type { EmbedOptions } from './options.ts';
import { enabledClient, requireAllowed, requireOrigin } from './access.ts';

export function createManifestService(options: EmbedOptions, cache: ClientCache) {
  const limiter = new RateLimiter({
    ratePerSecond: options.manifestRatePerSecond, burst: options.manifestBurst,
    message: (seconds) => `Too many manifest reads for this client: retry in ${seconds} s`,
  });
  return {
    /** The manifest and the origin it may be shown to (Access-Control-Allow-Origin). */
    async read(clientKey: string, originHeader: unknown) {
      const origin = requireOrigin(originHeader);
      const client = enabledClient(await cache.byKey(clientKey), clientKey);
      requireAllowed(client, origin);
      limiter.take(clientKey);
      return { manifest: client.manifest, origin };
    },
  };
}

export type ManifestService = ReturnType<typeof createManifestService>;
