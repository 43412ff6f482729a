// What the core gives every feature plugin, through coreOf(server)
// (server.plugins.core.services). Plugins never import each other's stores; they expose their
// own API with server.expose and read others' through server.plugins.
import type { Server } from '@hapi/hapi';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { Logger } from 'pino';
import type Joi from 'joi';
import type { PlatformConfig } from './config.ts';
import type { Database } from './db/types.ts';
import type { WithTenant, WithTenantSession } from './db/tenant.ts';
import type { TenantSqlService } from './tenant-sql/service.ts';
import type { JobsApi } from './jobs/types.ts';
import type { EventsApi } from './events.ts';
import type { FunctionRegistry } from './functions/registry.ts';
import type { GraphqlFacade } from './graphql/facade.ts';
import type { TokenService } from './auth/tokens.ts';
import type { ApiKeyResolver } from './auth/index.ts';
import type { SecretBox } from './secrets.ts';
import type { TenantDirectory } from './tenants.ts';
import type { PluginCli } from './cli/commands.ts';
import type { ServiceOverrides } from './sdk/index.ts';

/** Where plugins read the time for business rules (retention windows, expiries), so tests can move it. */
export interface Clock {
  now(): Date;
}

export type { ServiceOverrides };

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
  pool: pg.Pool;
  withTenant: WithTenant;
  /** withTenant with the transaction's pg connection too (COPY streams). */
  withTenantSession: WithTenantSession;
  /** Tenant-written SQL (analysis, previews, dry runs, materializations): its statement budget and the tenant's concurrency cap. */
  tenantSql: TenantSqlService;
  jobs: JobsApi;
  events: EventsApi;
  functions: FunctionRegistry;
  graphql: GraphqlFacade;
  auth: { tokens: TokenService; setApiKeyResolver(resolver: ApiKeyResolver): void };
  secrets: SecretBox;
  tenants: TenantDirectory;
  logger: Logger;
  clock: Clock;
  http: OutboundHttp;
  overrides: Readonly<ServiceOverrides>;
}

/** A hapi plugin as the platform loads it: `register` receives the options the manifest gave (validated by `optionsSchema`). */
export interface PlatformPlugin<Options = Record<string, unknown>> {
  name: string;
  version?: string;
  dependencies?: string | string[];
  register: (server: Server, options: Options) => void | Promise<void>;
}

/**
 * A secret a plugin reads from the environment, never from a manifest (a
 * manifest file is configuration, kept and shared as such). Settings that are
 * not secrets are manifest options. `description` is its meaning in the
 * README's settings table; a secret without one is described by its plugin's
 * README.
 */
export interface EnvironmentSecret {
  variable: string;
  description?: string;
}

/**
 * A feature plugin module exports `plugin`, its options' joi schema when it
 * takes options, `secrets` when it reads secrets from the environment, and
 * `cli` when it adds commands.
 */
export interface PlatformPluginModule {
  // Options are whatever the plugin's optionsSchema yields (hapi hands register `any` too).
  plugin: PlatformPlugin<any>;
  optionsSchema?: Joi.ObjectSchema;
  secrets?: readonly EnvironmentSecret[];
  cli?: PluginCli;
}

/** Types a plugin's options and register: `export const plugin = definePlugin<MyOptions>({name, register(server, options) {…}})`. */
export function definePlugin<Options = Record<string, unknown>>(plugin: PlatformPlugin<Options>): PlatformPlugin<Options> {
  return plugin;
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
