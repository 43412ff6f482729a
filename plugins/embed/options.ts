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
  /** How long another process may serve a client's configuration after it changed (EMBED_CONFIG_CACHE_TTL_SECONDS). */
  configCacheTtlSeconds: number;
  /** Token minting per client and process: refill rate and burst (EMBED_TOKEN_MINT_RATE_PER_SECOND, EMBED_TOKEN_MINT_BURST). */
  tokenMintRatePerSecond: number;
  tokenMintBurst: number;
  /** Manifest reads per client key and process (EMBED_MANIFEST_RATE_PER_SECOND, EMBED_MANIFEST_BURST). */
  manifestRatePerSecond: number;
  manifestBurst: number;
  /** The platform's public address (PUBLIC_BASE_URL): token_endpoint is built from it, else from the request. */
  publicBaseUrl: string | null;
}

export const optionsSchema = Joi.object({
  allowLocalhostOrigins: Joi.boolean().default(false),
  tokenMaxTtlSeconds: Joi.number().integer().min(60).max(86_400).default(3600),
  tokenDefaultTtlSeconds: Joi.number().integer().min(60).max(86_400).default(900),
  uploadMaxBytes: Joi.number().integer().min(1).max(1024 * 1024 * 1024).default(10 * 1024 * 1024),
  configCacheTtlSeconds: Joi.number().min(0).max(3600).default(10),
  tokenMintRatePerSecond: Joi.number().greater(0).max(100_000).default(20),
  tokenMintBurst: Joi.number().integer().min(1).max(1_000_000).default(100),
  manifestRatePerSecond: Joi.number().greater(0).max(1_000_000).default(1000),
  manifestBurst: Joi.number().integer().min(1).max(10_000_000).default(5000),
  publicBaseUrl: Joi.string().uri({ scheme: ['http', 'https'] }).allow('', null).empty('').default(null),
}).default({});

export const defaultOptions: EmbedOptions = optionsSchema.validate({}).value;
