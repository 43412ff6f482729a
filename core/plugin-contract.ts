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
import type { WithTenant } from './db/tenant.ts';
import type { JobsApi } from './jobs/types.ts';
import type { EventsApi } from './events.ts';
import type { FunctionRegistry } from './functions/registry.ts';
import type { GraphqlFacade } from './graphql/facade.ts';
import type { TokenService } from './auth/tokens.ts';
import type { ApiKeyResolver } from './auth/index.ts';
import type { SecretBox } from './secrets.ts';
import type { TenantDirectory } from './tenants.ts';

export interface CoreServices {
  config: PlatformConfig;
  /** The system handle: global tables only. Tenant rows go through withTenant. */
  db: Kysely<Database>;
  pool: pg.Pool;
  withTenant: WithTenant;
  jobs: JobsApi;
  events: EventsApi;
  functions: FunctionRegistry;
  graphql: GraphqlFacade;
  auth: { tokens: TokenService; setApiKeyResolver(resolver: ApiKeyResolver): void };
  secrets: SecretBox;
  tenants: TenantDirectory;
  logger: Logger;
}

/** A feature plugin module exports `plugin` and, when it takes options, their joi schema. */
export interface PlatformPluginModule {
  plugin: {
    name: string;
    version?: string;
    dependencies?: string | string[];
    register: (server: Server, options: any) => void | Promise<void>;
  };
  optionsSchema?: Joi.ObjectSchema;
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
