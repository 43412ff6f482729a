// joi schemas of the embed routes: input validation and the OpenAPI document.
import { Joi, MAX_ORIGINS } from 'agent-platform/sdk';

export const clientParams = Joi.object({ client_id: Joi.number().integer().min(1).max(2 ** 53 - 1).required() });
export const manifestParams = Joi.object({ client_key: Joi.string().pattern(/^[A-Za-z0-9_-]{3,100}$/).required() });
export const sessionParams = Joi.object({ session_id: Joi.string().guid().required() });

const features = Joi.object({
  uploads: Joi.boolean(), history: Joi.boolean(), feedback: Joi.boolean(), voice: Joi.boolean(),
}).label('EmbedFeatures');

// Theme defaults: font_family and colours, as the widget's CSS custom properties take them.
// Values are plain CSS values: no `;`, braces, angle brackets or backslashes.
const theme = Joi.object().pattern(Joi.string().pattern(/^[a-z][a-z0-9_]{0,63}$/), Joi.string().max(200).pattern(/^[^;{}<>\\]*$/))
  .max(50).label('EmbedTheme').description('Theme defaults, e.g. {"font_family": "Inter", "accent": "#155eef"}');

export const putConfig = Joi.object({
  enabled: Joi.boolean(),
  allowed_origins: Joi.array().items(Joi.string().max(2048)).max(MAX_ORIGINS)
    .description('Exact http(s) origins (scheme, host, optional port); no path, query, fragment or wildcard'),
  default_mode: Joi.string().valid('launcher', 'inline'),
  features,
  theme,
}).label('EmbedConfigInput');

export const config = Joi.object({
  client_id: Joi.number().integer(),
  client_key: Joi.string(),
  enabled: Joi.boolean(),
  allowed_origins: Joi.array().items(Joi.string()),
  default_mode: Joi.string(),
  features: Joi.object({ uploads: Joi.boolean(), history: Joi.boolean(), feedback: Joi.boolean(), voice: Joi.boolean() }),
  theme: Joi.object().unknown(true),
  service_account_client_id: Joi.string().allow(null),
  embed_token_credentials_updated_at: Joi.string().allow(null),
  version: Joi.number().integer(),
  updated_at: Joi.string().allow(null),
}).label('EmbedConfig');

export const credential = Joi.object({
  client_id: Joi.number().integer(),
  client_key: Joi.string(),
  service_account_client_id: Joi.string(),
  client_secret: Joi.string().description('Only in the provision and rotate answers'),
  token_endpoint: Joi.string(),
  created: Joi.boolean(),
  rotated: Joi.boolean(),
  embed_token_credentials_updated_at: Joi.string().allow(null).description('ISO 8601, UTC, without a zone suffix'),
}).label('EmbedCredential');

export const revocation = Joi.object({
  client_id: Joi.number().integer(),
  client_key: Joi.string(),
  service_account_client_id: Joi.string(),
  revoked: Joi.boolean(),
}).label('EmbedCredentialRevocation');

export const manifest = Joi.object({
  client_key: Joi.string(),
  client_id: Joi.number().integer(),
  tenant: Joi.string().description('The tenant alias (X-Tenant-ID of its public routes)'),
  tenant_display_name: Joi.string().allow(null),
  default_mode: Joi.string(),
  auth_modes: Joi.array().items(Joi.string()),
  features: Joi.object().unknown(true),
  theme: Joi.object().unknown(true),
}).label('EmbedManifest');

export const playground = Joi.object({
  client_id: Joi.number().integer().description('The tenant\'s default client (its oldest)'),
  client_key: Joi.string().description('Its public key: the widget\'s `client-key` and `selected_client`'),
  manifest: manifest.description('What GET /api/embed/manifest/{client_key} would answer, built from the client\'s embed configuration or its defaults'),
}).label('EmbedPlayground');

export const mintInput = Joi.object({
  client_key: Joi.string().pattern(/^[A-Za-z0-9_-]{3,100}$/).required(),
  external_user_id: Joi.string().min(1).max(200).pattern(/^[^\p{Cc}]+$/u).required().description('The host\'s own id of its user'),
  display_name: Joi.string().min(1).max(200).pattern(/^[^\p{Cc}]+$/u).required(),
  session_id: Joi.string().guid().description('The token then works for this session only'),
  expires_in: Joi.number().integer().min(60).description('Seconds; at most EMBED_TOKEN_MAX_TTL_SECONDS'),
}).label('EmbedTokenRequest');

export const minted = Joi.object({
  access_token: Joi.string(), expires_in: Joi.number().integer(), token_type: Joi.string().valid('Bearer'),
}).label('EmbedToken');

export const uploadQuery = Joi.object({
  selected_client: Joi.alternatives(Joi.number().integer().min(1), Joi.string().pattern(/^[A-Za-z0-9_-]{3,100}$/)),
});

export const uploadPayload = Joi.object({
  file: Joi.any().required().description('The file (multipart file field)'),
}).label('EmbedUpload');

export const uploadResult = Joi.object({
  collection_id: Joi.number().integer(),
  document_id: Joi.string().description('The platform\'s document id (a UUID string)'),
  filename: Joi.string(),
  context: Joi.string().description('A short line the widget shows and the next question carries'),
}).label('EmbedUploadResult');
