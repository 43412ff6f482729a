// Reads the platform's settings from the environment, once, with defaults.
// Every variable is declared in CORE_SETTINGS below, from which the README's
// configuration table is generated (scripts/settings-table.ts) together with
// the plugins' manifest options and secrets.
import path from 'node:path';
import { ROOT_DIR as rootDir } from './paths.ts';
import { TELEMETRY_SETTINGS } from './telemetry/settings.ts';

export interface PlatformConfig {
  rootDir: string;
  databaseUrl: string | undefined;
  dataDir: string;
  manifestPath: string;
  masterKey: string | undefined;
  adminToken: string | undefined;
  /** Bearer token /api/v1/metrics requires (METRICS_TOKEN); unset leaves metrics open. */
  metricsToken: string | undefined;
  serviceJwtSecret: string | undefined;
  oidcIssuerUrl: string | undefined;
  oidcAudience: string | undefined;
  /** `iss` values a service token may carry (SERVICE_JWT_ISSUERS). */
  serviceJwtIssuers: string[];
  /** The `aud` a service token must name: this platform (SERVICE_JWT_AUDIENCE, default PLATFORM_TOKEN_ISSUER). */
  serviceJwtAudience: string;
  /** Longest accepted service-token lifetime, exp − iat (SERVICE_JWT_MAX_TTL). */
  serviceJwtMaxTtlSeconds: number;
  tokenIssuer: string;
  tokenTtlSeconds: number;
  logLevel: string;
  jobsPollIntervalMs: number;
  jobsConcurrency: number;
  jobsLocalQueueSize: number;
  jobsWorkerStaleSeconds: number;
  /** How often pg-boss looks for long jobs whose expiry or heartbeat passed (JOBS_SUPERVISE_INTERVAL_SECONDS). */
  jobsSuperviseIntervalSeconds: number;
  shutdownTimeoutMs: number;
  /** Deadline of a request's head from the connection's first byte (HTTP_HEADERS_TIMEOUT_SECONDS). */
  httpHeadersTimeoutMs: number;
  /** Deadline of a whole request, body included; never of the response (HTTP_REQUEST_TIMEOUT_SECONDS). */
  httpRequestTimeoutMs: number;
  /** An idle keep-alive connection closes after this (HTTP_KEEP_ALIVE_TIMEOUT_SECONDS). */
  httpKeepAliveTimeoutMs: number;
  /** Open connections at most; more are closed as they arrive (HTTP_MAX_CONNECTIONS). */
  httpMaxConnections: number;
  /** Percent of responses checked against their route's schema (HTTP_RESPONSE_VALIDATION_PERCENT). */
  httpResponseValidationPercent: number;
  /** Statement budget of tenant-written SQL a request waits on (TENANT_SQL_INTERACTIVE_TIMEOUT_SECONDS). */
  tenantSqlInteractiveTimeoutSeconds: number;
  /** Tenant-written statements of one tenant running at once, across processes (TENANT_SQL_MAX_CONCURRENT_PER_TENANT). */
  tenantSqlMaxConcurrentPerTenant: number;
  env: Record<string, string | undefined>;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A core setting as the README's configuration table shows it: its default there (markdown) and its meaning. */
export interface CoreSetting {
  variable: string;
  default: string;
  description: string;
}

/**
 * Every core setting, in the order of the README's table: those read by
 * loadConfig, and the few the core reads where they apply
 * (PLATFORM_CONNECTION_GUARD in db/connection-guard.ts, GRAPHQL_* in
 * graphql/limits.ts and graphql/graphiql.ts, the OTEL_* variables in
 * telemetry/settings.ts). PORT and HOST are the manifest's `server`.
 */
export const CORE_SETTINGS: readonly CoreSetting[] = [
  { variable: 'DATABASE_URL', default: '(embedded PGlite)',
    description: 'PostgreSQL connection string' },
  { variable: 'PLATFORM_DATA_DIR', default: '`./.data`',
    description: 'Embedded database, generated master key' },
  { variable: 'PLATFORM_MASTER_KEY', default: 'generated on the embedded default; required otherwise',
    description: '32 bytes (64 hex or base64): AES-256-GCM key for secrets that are used again; also derives the token signing key' },
  { variable: 'PLATFORM_MANIFEST', default: '`manifests/default.yaml`',
    description: 'Which plugins to load, with their options' },
  { variable: 'ADMIN_TOKEN', default: 'generated once, hash stored',
    description: 'Super-admin bearer token' },
  { variable: 'SERVICE_JWT_SECRET', default: 'unset (service tokens refused)',
    description: 'HS256 secret of cross-tenant service tokens' },
  { variable: 'SERVICE_JWT_ISSUERS', default: '`platform-service`',
    description: 'Comma-separated `iss` values accepted on service tokens (must not contain `PLATFORM_TOKEN_ISSUER`)' },
  { variable: 'SERVICE_JWT_AUDIENCE', default: 'value of `PLATFORM_TOKEN_ISSUER`',
    description: '`aud` a service token must carry (names this platform)' },
  { variable: 'SERVICE_JWT_MAX_TTL', default: '`3600`',
    description: 'Longest accepted service-token lifetime `exp − iat`, seconds; `iat` required' },
  { variable: 'OIDC_ISSUER_URL', default: 'unset',
    description: 'External OIDC issuer whose JWTs (JWKS) are accepted' },
  { variable: 'OIDC_AUDIENCE', default: 'unset (boot fails when `OIDC_ISSUER_URL` is set)',
    description: 'Required `aud` of OIDC tokens' },
  { variable: 'PLATFORM_TOKEN_ISSUER', default: '`agent-platform`',
    description: '`iss` of tokens the platform issues' },
  { variable: 'PLATFORM_TOKEN_TTL', default: '`3600`',
    description: 'Lifetime in seconds of issued tokens' },
  { variable: 'METRICS_TOKEN', default: 'unset (metrics open)',
    description: 'Bearer token `/api/v1/metrics` requires' },
  { variable: 'LOG_LEVEL', default: '`info`',
    description: 'pino level (`silent` to turn off)' },
  { variable: 'PLATFORM_CONNECTION_GUARD', default: '`off` (`throw` on the embedded database and under `npm test`)',
    description: '`throw`: a second database connection taken while a transaction is held fails with `SecondConnectionError` (on PGlite it would wait forever); `trace`: also writes its stack to stderr' },
  { variable: 'JOBS_POLL_INTERVAL_MS', default: '`1000`',
    description: 'How often idle workers look for jobs (a new job, or a named queue coming free, wakes them at once through NOTIFY where the database delivers it)' },
  { variable: 'JOBS_CONCURRENCY', default: '`5`',
    description: 'Fast jobs run at once per process' },
  { variable: 'JOBS_LOCAL_QUEUE_SIZE', default: '`6`',
    description: 'Fast jobs a process claims per query and hands to its workers as they free up (`1`: one claim per job). Claimed jobs wait for this process\'s workers, and a higher-priority job added meanwhile waits for them' },
  { variable: 'JOBS_SUPERVISE_INTERVAL_SECONDS', default: '`60`',
    description: 'How often pg-boss fails (and retries) long jobs past their expiry or heartbeat, e.g. the sync of a killed process' },
  { variable: 'JOBS_WORKER_STALE_SECONDS', default: '`120`',
    description: 'A job worker without a heartbeat this long is dead: its job locks are released so another process runs the job (a crashed process\'s jobs)' },
  { variable: 'SHUTDOWN_TIMEOUT_MS', default: '`10000`',
    description: 'How long SIGTERM waits for requests and jobs to drain' },
  { variable: 'HTTP_HEADERS_TIMEOUT_SECONDS', default: '`20`',
    description: 'A connection must send a request\'s whole head this soon after it starts (a silent or slow client included); past it 408 and the connection is closed' },
  { variable: 'HTTP_REQUEST_TIMEOUT_SECONDS', default: '`300`',
    description: 'Deadline of receiving a whole request, body included (uploads must arrive within it); never of the response, so SSE streams last as long as they need. At least `HTTP_HEADERS_TIMEOUT_SECONDS`' },
  { variable: 'HTTP_KEEP_ALIVE_TIMEOUT_SECONDS', default: '`5`',
    description: 'An idle keep-alive connection is closed after this' },
  { variable: 'HTTP_MAX_CONNECTIONS', default: '`10000`',
    description: 'Open connections at most, per process; more are closed as they arrive. A connection the client breaks (reset, malformed or timed-out request, aborted request) is logged at debug, without a stack' },
  { variable: 'HTTP_RESPONSE_VALIDATION_PERCENT', default: '`10`',
    description: 'Percent of responses checked against their route\'s documented schema (0–100). A response that does not match is logged at error and sent as it is, so this is a diagnostic: `100` checks every response (development), `0` none. Each check costs about as much as validating the request' },
  { variable: 'TENANT_SQL_INTERACTIVE_TIMEOUT_SECONDS', default: '`10`',
    description: 'Statement budget (`SET LOCAL statement_timeout`) of tenant-written SQL a request waits on: SQL analysis and review (`/ai/review-sql`, transform create/patch/hydrate, pattern validate), pattern previews, identity dry runs; PostgreSQL\'s planning (constant folding) counts. Past it 422 `SQL_TIMEOUT` and nothing is changed. Jobs (transform runs, pipeline steps, the identity api\'s `match`) keep their own settings' },
  { variable: 'TENANT_SQL_MAX_CONCURRENT_PER_TENANT', default: '`2`',
    description: 'Tenant-written SQL statements of one tenant running at once, counted across all processes (advisory locks; 1–64); past it a request gets 429 `SQL_CONCURRENCY_LIMIT` with `Retry-After`, a job waits for a slot up to its own statement budget. On the embedded database one request\'s statement runs at a time in the process (others 429 with `Retry-After`)' },
  { variable: 'GRAPHQL_MAX_TOKENS', default: '`2000`',
    description: 'Largest `/graphql` document, in tokens (the standard introspection query is about 200); past it 400 `QUERY_TOO_LARGE` before validation' },
  { variable: 'GRAPHQL_MAX_DEPTH', default: '`12`',
    description: 'Deepest field nesting of a GraphQL operation (introspection\'s `ofType` chains do not count); past it 400 `QUERY_TOO_DEEP`, nothing runs' },
  { variable: 'GRAPHQL_MAX_ALIASES', default: '`30`',
    description: 'Aliased fields in one operation (a fragment\'s at each spread); past it 400 `TOO_MANY_ALIASES`, nothing runs' },
  { variable: 'GRAPHQL_MAX_COST', default: '`5000`',
    description: 'Cost of one operation: each field 1, times the sizes of the lists it is in (`first`/`limit`/`topK`, a variable without default counting 100, no argument 20 or the schema\'s default); past it 400 `QUERY_TOO_COSTLY`, nothing runs' },
  { variable: 'GRAPHQL_GRAPHIQL', default: '`true`',
    description: 'GraphiQL at `GET /graphql` for browsers (`Accept: text/html`; the page is served whole, nothing from a CDN); `false`: a browser gets the 400 of a GET without `query`' },
  ...TELEMETRY_SETTINGS,
];


function positiveInt(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new ConfigError(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

function percent(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 100) throw new ConfigError(`${name} must be an integer from 0 to 100, got "${raw}"`);
  return value;
}

function atMost(value: number, max: number, name: string): number {
  if (value > max) throw new ConfigError(`${name} must be at most ${max}, got ${value}`);
  return value;
}

function optional(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** A comma-separated list; blanks dropped. */
function list(env: Record<string, string | undefined>, name: string, fallback: string[]): string[] {
  const items = (optional(env, name) ?? '').split(',').map((item) => item.trim()).filter(Boolean);
  return items.length > 0 ? items : fallback;
}

/** The manifest file the settings name: PLATFORM_MANIFEST (from the platform's root), else manifests/default.yaml. */
export function manifestPathOf(env: Record<string, string | undefined>): string {
  return path.resolve(rootDir, optional(env, 'PLATFORM_MANIFEST') ?? 'manifests/default.yaml');
}

export function loadConfig(env: Record<string, string | undefined> = process.env): PlatformConfig {
  // An OIDC token without an audience check is valid here if the issuer minted
  // it for any of its clients (another application's login would be accepted).
  if (optional(env, 'OIDC_ISSUER_URL') && !optional(env, 'OIDC_AUDIENCE')) {
    throw new ConfigError('OIDC_AUDIENCE is required when OIDC_ISSUER_URL is set (the client id this platform\'s tokens are issued for)');
  }
  const tokenIssuer = optional(env, 'PLATFORM_TOKEN_ISSUER') ?? 'agent-platform';
  const serviceJwtIssuers = list(env, 'SERVICE_JWT_ISSUERS', ['platform-service']);
  // verify() picks the verification by `iss`: a service issuer equal to the
  // platform's own would never reach the service-token check.
  if (serviceJwtIssuers.includes(tokenIssuer)) {
    throw new ConfigError(`SERVICE_JWT_ISSUERS must not contain PLATFORM_TOKEN_ISSUER ("${tokenIssuer}")`);
  }
  const dataDir = path.resolve(rootDir, optional(env, 'PLATFORM_DATA_DIR') ?? '.data');
  const httpHeadersTimeoutSeconds = positiveInt(env, 'HTTP_HEADERS_TIMEOUT_SECONDS', 20);
  const httpRequestTimeoutSeconds = positiveInt(env, 'HTTP_REQUEST_TIMEOUT_SECONDS', 300);
  // Node refuses a head deadline later than the whole request's.
  if (httpHeadersTimeoutSeconds > httpRequestTimeoutSeconds) {
    throw new ConfigError(`HTTP_HEADERS_TIMEOUT_SECONDS (${httpHeadersTimeoutSeconds}) must not exceed HTTP_REQUEST_TIMEOUT_SECONDS (${httpRequestTimeoutSeconds})`);
  }
  return {
    rootDir,
    databaseUrl: optional(env, 'DATABASE_URL'),
    dataDir,
    manifestPath: manifestPathOf(env),
    masterKey: optional(env, 'PLATFORM_MASTER_KEY'),
    adminToken: optional(env, 'ADMIN_TOKEN'),
    metricsToken: optional(env, 'METRICS_TOKEN'),
    serviceJwtSecret: optional(env, 'SERVICE_JWT_SECRET'),
    oidcIssuerUrl: optional(env, 'OIDC_ISSUER_URL'),
    oidcAudience: optional(env, 'OIDC_AUDIENCE'),
    serviceJwtIssuers,
    serviceJwtAudience: optional(env, 'SERVICE_JWT_AUDIENCE') ?? tokenIssuer,
    serviceJwtMaxTtlSeconds: positiveInt(env, 'SERVICE_JWT_MAX_TTL', 3600),
    tokenIssuer,
    tokenTtlSeconds: positiveInt(env, 'PLATFORM_TOKEN_TTL', 3600),
    logLevel: optional(env, 'LOG_LEVEL') ?? 'info',
    jobsPollIntervalMs: positiveInt(env, 'JOBS_POLL_INTERVAL_MS', 1000),
    jobsConcurrency: positiveInt(env, 'JOBS_CONCURRENCY', 5),
    jobsLocalQueueSize: positiveInt(env, 'JOBS_LOCAL_QUEUE_SIZE', 6),
    jobsWorkerStaleSeconds: positiveInt(env, 'JOBS_WORKER_STALE_SECONDS', 120),
    jobsSuperviseIntervalSeconds: positiveInt(env, 'JOBS_SUPERVISE_INTERVAL_SECONDS', 60),
    shutdownTimeoutMs: positiveInt(env, 'SHUTDOWN_TIMEOUT_MS', 10000),
    httpHeadersTimeoutMs: httpHeadersTimeoutSeconds * 1000,
    httpRequestTimeoutMs: httpRequestTimeoutSeconds * 1000,
    httpKeepAliveTimeoutMs: positiveInt(env, 'HTTP_KEEP_ALIVE_TIMEOUT_SECONDS', 5) * 1000,
    httpMaxConnections: positiveInt(env, 'HTTP_MAX_CONNECTIONS', 10000),
    httpResponseValidationPercent: percent(env, 'HTTP_RESPONSE_VALIDATION_PERCENT', 10),
    tenantSqlInteractiveTimeoutSeconds: positiveInt(env, 'TENANT_SQL_INTERACTIVE_TIMEOUT_SECONDS', 10),
    tenantSqlMaxConcurrentPerTenant: atMost(positiveInt(env, 'TENANT_SQL_MAX_CONCURRENT_PER_TENANT', 2), 64, 'TENANT_SQL_MAX_CONCURRENT_PER_TENANT'),
    env,
  };
}
