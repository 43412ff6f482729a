// The console plugin's manifest options (manifests/default.yaml maps each to
// a CONSOLE_* variable, the public address to PUBLIC_BASE_URL; the root README lists them).
import { Joi } from 'agent-platform/sdk';

export interface ConsoleOptions {
  /** The OIDC client the console signs in as, with OIDC_ISSUER_URL (CONSOLE_OIDC_CLIENT_ID). */
  oidcClientId: string | null;
  /** The platform's public address: the base of the links `platform console link` prints (PUBLIC_BASE_URL). */
  publicBaseUrl: string | null;
  /** How long a sign-in link stays valid (CONSOLE_LINK_TTL_SECONDS). */
  linkTtlSeconds: number;
  /** Link exchanges per client address, across every process (CONSOLE_LINK_RATE_LIMIT_PER_MINUTE). */
  linkRatePerMinute: number;
  /** The map tiles of the Occurrences section, `{z}/{x}/{y}` (CONSOLE_MAP_TILE_URL). */
  mapTileUrl: string;
}

/** The default tiles: OpenStreetMap's. */
export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

export const optionsSchema = Joi.object({
  oidcClientId: Joi.string().max(255).pattern(/^[\x21-\x7e]+$/).allow('', null).empty('').default(null)
    .description('OIDC client id of the console: with `OIDC_ISSUER_URL` set, the sign-in page offers "Sign in with <issuer>" (authorization code + PKCE from the browser; register `<public address>/console/callback` as its redirect URI)')
    .meta({ whenUnset: 'token and link sign-in only' }),
  publicBaseUrl: Joi.string().uri({ scheme: ['http', 'https'] }).allow('', null).empty('').default(null)
    .description('The platform\'s public address: `platform console link` prints links under it').meta({ whenUnset: 'the running server this data directory records, else http://127.0.0.1:$PORT' }),
  linkTtlSeconds: Joi.number().integer().min(30).max(3600).default(300)
    .description('How long a sign-in link of `platform console link` stays valid, in seconds'),
  linkRatePerMinute: Joi.number().integer().min(1).max(100_000).default(10)
    .description('Sign-in link exchanges per client address a minute, across every process (`POST /api/console/link/exchange`); past it 429 with `Retry-After`'),
  mapTileUrl: Joi.string().max(500)
    .pattern(/^https?:\/\/(\{s\}\.)?[A-Za-z0-9.-]+(:\d{1,5})?\/[^\s"'<>\\]*$/)
    .custom((value: string, helpers) => (['{z}', '{x}', '{y}'].every((part) => value.includes(part)) ? value : helpers.error('any.invalid')))
    .default(DEFAULT_TILE_URL)
    .description('Map tiles of the console\'s Occurrences section, an http(s) URL with `{z}`, `{x}` and `{y}` (a leading `{s}.` subdomain allowed); the console page\'s Content-Security-Policy allows images from its host. Without network the points show on a plain background'),
}).default({});

export const defaultOptions: ConsoleOptions = optionsSchema.validate({}).value;
