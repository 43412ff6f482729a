// Reads the platform's settings from the environment, once, with defaults.
// Every variable is listed in the README's configuration table.
import path from 'node:path';
import { ROOT_DIR as rootDir } from './paths.ts';

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
  /** Statement budget of tenant-written SQL a request waits on (TENANT_SQL_INTERACTIVE_TIMEOUT_SECONDS). */
  tenantSqlInteractiveTimeoutSeconds: number;
  /** Tenant-written statements of one tenant running at once, across processes (TENANT_SQL_MAX_CONCURRENT_PER_TENANT). */
  tenantSqlMaxConcurrentPerTenant: number;
  env: Record<string, string | undefined>;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}


function positiveInt(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new ConfigError(`${name} must be a positive integer, got "${raw}"`);
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
  const manifest = optional(env, 'PLATFORM_MANIFEST') ?? 'manifests/default.yaml';
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
    manifestPath: path.resolve(rootDir, manifest),
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
    jobsWorkerStaleSeconds: positiveInt(env, 'JOBS_WORKER_STALE_SECONDS', 120),
    jobsSuperviseIntervalSeconds: positiveInt(env, 'JOBS_SUPERVISE_INTERVAL_SECONDS', 60),
    shutdownTimeoutMs: positiveInt(env, 'SHUTDOWN_TIMEOUT_MS', 10000),
    httpHeadersTimeoutMs: httpHeadersTimeoutSeconds * 1000,
    httpRequestTimeoutMs: httpRequestTimeoutSeconds * 1000,
    httpKeepAliveTimeoutMs: positiveInt(env, 'HTTP_KEEP_ALIVE_TIMEOUT_SECONDS', 5) * 1000,
    httpMaxConnections: positiveInt(env, 'HTTP_MAX_CONNECTIONS', 10000),
    tenantSqlInteractiveTimeoutSeconds: positiveInt(env, 'TENANT_SQL_INTERACTIVE_TIMEOUT_SECONDS', 10),
    tenantSqlMaxConcurrentPerTenant: atMost(positiveInt(env, 'TENANT_SQL_MAX_CONCURRENT_PER_TENANT', 2), 64, 'TENANT_SQL_MAX_CONCURRENT_PER_TENANT'),
    env,
  };
}
