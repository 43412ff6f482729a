// The embed plugin's manifest options (manifests/default.yaml maps each to an
// EMBED_* variable; the root README lists them).
import { Joi } from 'agent-platform/sdk';

export interface EmbedOptions {
  /** Localhost and loopback origins (localhost, *.localhost, 127.0.0.0/8, [::1]) may be allowlisted (EMBED_ALLOW_LOCALHOST_ORIGINS). */
  allowLocalhostOrigins: boolean;
  /** Longest `expires_in` of an embed token (EMBED_TOKEN_MAX_TTL_SECONDS). */
  tokenMaxTtlSeconds: number;
  /** `expires_in` when the mint request leaves it out, capped by the maximum (EMBED_TOKEN_DEFAULT_TTL_SECONDS). */
  tokenDefaultTtlSeconds: number;
  /** Largest scoped upload (EMBED_UPLOAD_MAX_BYTES); 413 above. */
  uploadMaxBytes: number;
  /** How long a process may serve a client's configuration after it changed when no invalidation reached it (EMBED_CONFIG_CACHE_TTL_SECONDS). */
  configCacheTtlSeconds: number;
  /** Token minting per client, across processes: refill rate and burst (EMBED_TOKEN_MINT_RATE_PER_SECOND, EMBED_TOKEN_MINT_BURST). */
  tokenMintRatePerSecond: number;
  tokenMintBurst: number;
  /** Manifest reads per client key, across processes (EMBED_MANIFEST_RATE_PER_SECOND, EMBED_MANIFEST_BURST). */
  manifestRatePerSecond: number;
  manifestBurst: number;
  /** The platform's public address (PUBLIC_BASE_URL): token_endpoint is built from it, else from the request. */
  publicBaseUrl: string | null;
}

export const optionsSchema = Joi.object({
  allowLocalhostOrigins: Joi.boolean().default(false)
    .description('Lets an embed configuration allowlist localhost and loopback origins (development)'),
  tokenMaxTtlSeconds: Joi.number().integer().min(60).max(86_400).default(3600)
    .description('Longest `expires_in` of an embed token; above it minting answers 400 naming the maximum'),
  tokenDefaultTtlSeconds: Joi.number().integer().min(60).max(86_400).default(900)
    .description('Lifetime of an embed token minted without `expires_in` (capped by the maximum)'),
  uploadMaxBytes: Joi.number().integer().min(1).max(1024 * 1024 * 1024).default(10 * 1024 * 1024)
    .description('Largest file an end user attaches to a conversation (413 above)'),
  configCacheTtlSeconds: Joi.number().min(0).max(3600).default(10)
    .description('How long a process serves a client\'s cached embed configuration (manifest, origin policy) before reading it again; a change is seen at once by every process the database notifies (LISTEN/NOTIFY), so this bounds staleness only while that is down'),
  tokenMintRatePerSecond: Joi.number().greater(0).max(100_000).default(20)
    .description('Embed tokens minted per client, across processes (token bucket); past it 429 with `Retry-After`'),
  tokenMintBurst: Joi.number().integer().min(1).max(1_000_000).default(100)
    .description('Embed tokens minted per client, across processes (token bucket); past it 429 with `Retry-After`'),
  manifestRatePerSecond: Joi.number().greater(0).max(1_000_000).default(1000)
    .description('Manifest reads per client key, across processes; past it 429 with `Retry-After`'),
  manifestBurst: Joi.number().integer().min(1).max(10_000_000).default(5000)
    .description('Manifest reads per client key, across processes; past it 429 with `Retry-After`'),
  publicBaseUrl: Joi.string().uri({ scheme: ['http', 'https'] }).allow('', null).empty('').default(null)
    .description('The platform\'s public address: the embed credential\'s `token_endpoint` is built from it').meta({ whenUnset: 'the request\'s own origin' }),
}).default({});

export const defaultOptions: EmbedOptions = optionsSchema.validate({}).value;
