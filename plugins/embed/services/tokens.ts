// Minting embed tokens: the
// caller is the client's embed credential (its client_credentials token) or
// the super-admin, from an allowlisted Origin, for an enabled client. Rate
// limited per client, across processes (core.rateLimits: 429 with Retry-After).
// The token's claims are core/auth/embed-tokens.ts's (README lists them).
import { badRequest, forbidden, type CoreServices, type Principal } from 'agent-platform/sdk';
import { enabledClient, requireAllowed, requireOrigin } from '../access.ts';
import type { ClientCache } from '../cache/client-cache.ts';
import type { EmbedOptions } from '../options.ts';

export interface MintInput {
  client_key: string;
  external_user_id: string;
  display_name: string;
  session_id?: string;
  expires_in?: number;
}

export function createTokensService(core: Pick<CoreServices, 'auth' | 'rateLimits'>, options: EmbedOptions, cache: ClientCache) {
  const limiter = core.rateLimits.limiter('embed.mint', {
    ratePerSecond: options.tokenMintRatePerSecond, burst: options.tokenMintBurst,
    message: (seconds) => `Too many embed tokens for this client: retry in ${seconds} s`,
  });
  return {
    async mint(principal: Principal, originHeader: unknown, input: MintInput) {
      const origin = requireOrigin(originHeader);
      const client = enabledClient(await cache.byKey(input.client_key), input.client_key);
      const mintedBy = principal.kind === 'user' && principal.serviceAccount ? principal.sub : undefined;
      if (principal.kind !== 'super_admin' && (mintedBy === undefined || mintedBy !== client.serviceAccountSub)) {
        throw forbidden('Only this client\'s embed credential (or the super-admin) may mint its embed tokens', 'EMBED_MINT_FORBIDDEN');
      }
      requireAllowed(client, origin);
      const ttl = input.expires_in ?? Math.min(options.tokenDefaultTtlSeconds, options.tokenMaxTtlSeconds);
      if (ttl > options.tokenMaxTtlSeconds) {
        throw badRequest(`expires_in must be at most ${options.tokenMaxTtlSeconds} seconds (EMBED_TOKEN_MAX_TTL_SECONDS)`, 'VALIDATION_FAILED');
      }
      await limiter.take(String(client.clientId));
      const issued = await core.auth.tokens.issueEmbedToken({
        tenantId: client.tenantId, clientId: client.clientId, externalUserId: input.external_user_id, displayName: input.display_name,
        sessionId: input.session_id, mintedBy, ttlSeconds: ttl,
      });
      return { access_token: issued.access_token, expires_in: issued.expires_in, token_type: 'Bearer' as const };
    },
  };
}

export type TokensService = ReturnType<typeof createTokensService>;
