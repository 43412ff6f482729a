// What the core gives every feature plugin, through coreOf(server)
// (server.plugins.core.services). Plugins never import each other's stores; they expose their
// own API with server.expose and read others' through server.plugins.
import type { Server } from '@hapi/hapi';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { PlatformConfig } from './config.ts';
import type { Database } from './db/types.ts';
import type { WithTenant, WithTenantSession } from './db/tenant.ts';
import type { TenantSqlService } from './tenant-sql/service.ts';
import type { JobsApi } from './jobs/types.ts';
import type { SchedulesApi } from './schedules/types.ts';
import type { EventsApi } from './events.ts';
import type { ExtensionsApi } from './extensions.ts';
import type { FunctionRegistry } from './functions/registry.ts';
import type { GraphqlFacade } from './graphql/facade.ts';
import type { TokenService } from './auth/tokens.ts';
import type { ApiKeyResolver } from './auth/index.ts';
import type { SecretBox } from './secrets.ts';
import type { TenantDirectory } from './tenants.ts';
import type { InvalidationApi } from './db/invalidation.ts';
import type { RateLimitsApi } from './http/shared-rate-limit.ts';

/** Where plugins read the time for business rules (retention windows, expiries), so tests can move it. */
export interface Clock {
  now(): Date;
}

/**
 * Services a test (startTestPlatform's `services`) or an embedding may
 * replace, read by plugins from `core.overrides` (core.clock and
 * core.http.fetch apply the first two). A plugin adds its own by declaration
 * merging on this interface through the SDK entry, which re-exports it
 * (`declare module 'agent-platform/sdk'`; chat: `modelClient`).
 */
export interface ServiceOverrides {
  clock?: Clock;
  /** The fetch of every outbound call (core.http.fetch) instead of the private-network guarded one: a stub, or a recording fetch. */
  fetch?: typeof fetch;
}

export interface OutboundHttp {
  /** A fetch that refuses private addresses at connect time unless allowed (core/http/guarded-fetch.ts). */
  fetch(options: { allowPrivateNetworks: boolean }): typeof fetch;
}

export interface CoreServices {
  /** `cli`: a CLI command runs (no HTTP server, no workers: jobs are enqueued for the server's workers). */
  mode: 'server' | 'cli';
  config: PlatformConfig;
  /** The system handle: global tables only. Tenant rows go through withTenant. */
  db: Kysely<Database>;
  /** The same connections as `db`, in node-postgres's pipeline mode: COPY streams and cursors go through withTenantSession. */
  pool: pg.Pool;
  withTenant: WithTenant;
  /** withTenant with the transaction's pg connection too (COPY streams). */
  withTenantSession: WithTenantSession;
  /** Tenant-written SQL (analysis, previews, dry runs, materializations): its statement budget and the tenant's concurrency cap. */
  tenantSql: TenantSqlService;
  jobs: JobsApi;
  /** Cron schedules of every plugin, each with one timer job (core/schedules/). */
  schedules: SchedulesApi;
  events: EventsApi;
  /** Extension points: contribute to another plugin's, consume your own (core/extensions.ts). */
  extensions: ExtensionsApi;
  functions: FunctionRegistry;
  graphql: GraphqlFacade;
  auth: { tokens: TokenService; setApiKeyResolver(resolver: ApiKeyResolver): void };
  secrets: SecretBox;
  tenants: TenantDirectory;
  /** Cache invalidation across processes: a channel per purpose, LISTEN/NOTIFY (core/db/invalidation.ts). */
  invalidation: InvalidationApi;
  /** Rate limits shared by every process on the database (core/http/shared-rate-limit.ts). */
  rateLimits: RateLimitsApi;
  logger: Logger;
  clock: Clock;
  http: OutboundHttp;
  overrides: Readonly<ServiceOverrides>;
}

declare module '@hapi/hapi' {
  interface PluginProperties {
    // Exposed under a key: hapi deep-merges (clones) objects passed to expose() whole.
    core: { services: CoreServices; forPlugin(name: string): CoreServices };
  }
}

/**
 * The core's services as the calling plugin sees them: called with the
 * server a plugin's register receives, what it declares (event types) is
 * recorded under that plugin's name.
 */
export function coreOf(server: Server): CoreServices {
  const core = server.plugins.core;
  if (!core) throw new Error('the core is not registered on this server');
  const plugin = server.realm.plugin;
  return plugin ? core.forPlugin(plugin) : core.services;
}
