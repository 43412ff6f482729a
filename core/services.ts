// The core's services, assembled once for the server (core/boot.ts) and for
// CLI commands (core/cli/bin.ts): the database (external, or the embedded
// default), migrations of core and the manifest's plugins, secrets, tokens,
// jobs, schedules, the event hub, the function registry, GraphQL, the tenant directory,
// the clock, outbound HTTP, cross-process cache invalidation and shared rate
// limits. In `cli` mode nothing runs in the background:
// the jobs are enqueue-only (the server's workers run them) and the logger is
// silent.
import type { Logger } from 'pino';
import type pg from 'pg';
import type { PlatformConfig } from './config.ts';
import { createLogger } from './logging.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { createWithTenant, createWithTenantSession } from './db/tenant.ts';
import { createTenantSql } from './tenant-sql/service.ts';
import { EmbeddedBusyError, runningEmbeddedUrl, startEmbeddedDatabase } from './db/embedded.ts';
import { createSecretBox, loadMasterKey } from './secrets.ts';
import { JobService } from './jobs/index.ts';
import { createSchedules } from './schedules/service.ts';
import { EventHub } from './events.ts';
import { FunctionRegistry } from './functions/registry.ts';
import { GraphqlFacade } from './graphql/facade.ts';
import { graphqlLimitsFrom } from './graphql/limits.ts';
import { graphiqlEnabledFrom } from './graphql/graphiql.ts';
import { TokenService } from './auth/tokens.ts';
import type { ApiKeyResolver } from './auth/index.ts';
import { TenantDirectory } from './tenants.ts';
import { createGuardedFetch } from './http/guarded-fetch.ts';
import { setConnectionGuard } from './db/connection-guard.ts';
import { migrationSourcesOf, type ResolvedPlugin } from './plugin-loader.ts';
import { ExtensionRegistry } from './extensions.ts';
import { InvalidationBus } from './db/invalidation.ts';
import { SharedRateLimits } from './http/shared-rate-limit.ts';
import type { Clock, CoreServices, ServiceOverrides } from './plugin-contract.ts';

export interface CoreServicesOptions {
  mode: 'server' | 'cli';
  /** The manifest's plugins, in dependency order: their migrations are applied after core's. */
  plugins: ResolvedPlugin[];
  /** The server's logger; the CLI's is silent. */
  logger?: Logger;
  overrides?: ServiceOverrides;
  /** Brings the database's schema up to date instead of applying `plugins`' migrations (the CLI's check that needs no plugin imported). */
  migrate?: (pool: pg.Pool) => Promise<void>;
}

export interface CoreHandle {
  core: CoreServices;
  /** The core as one plugin sees it (what it registers is recorded under its name). */
  forPlugin(name: string): CoreServices;
  jobs: JobService;
  database: DatabaseHandle;
  masterKey: Buffer;
  /** The embedded default (PGlite) is in use. */
  embedded: boolean;
  /** The extension points of the manifest's plugins (declared when their plugins register). */
  extensions: ExtensionRegistry;
  /** The API-key lookup the tenancy plugin installed, if any. */
  apiKeyResolver(): ApiKeyResolver | undefined;
  /** Closes the database (and the embedded one this process opened). */
  close(): Promise<void>;
}

const systemClock: Clock = { now: () => new Date() };

/**
 * A CLI command on the embedded default uses the running server's PGlite
 * socket when one is up (PGlite cannot open one data dir twice), else opens
 * PGlite itself for the length of the command.
 */
async function cliEmbeddedUrl(dataDir: string): Promise<{ url: string; stop?: () => Promise<void> }> {
  for (let attempt = 0; ; attempt++) {
    const url = await runningEmbeddedUrl(dataDir);
    if (url) return { url };
    try {
      const embedded = await startEmbeddedDatabase(dataDir, { role: 'cli' });
      return { url: embedded.url, stop: () => embedded.stop() };
    } catch (err) {
      // A server took the data dir between the two calls: connect to it instead.
      if (!(err instanceof EmbeddedBusyError) || attempt > 0) throw err;
    }
  }
}

async function databaseUrlOf(config: PlatformConfig, mode: 'server' | 'cli', logger: Logger): Promise<{ url: string; embedded: boolean; stop?: () => Promise<void> }> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false };
  if (mode === 'cli') return { ...(await cliEmbeddedUrl(config.dataDir)), embedded: true };
  const embedded = await startEmbeddedDatabase(config.dataDir, {
    onRestart: ({ reason, detail, error }) => {
      if (error) logger.error({ reason, err: error }, `embedded database: reopening after ${detail} failed`);
      else logger.warn({ reason }, `embedded database reopened: ${detail}`);
    },
  });
  return { url: embedded.url, embedded: true, stop: () => embedded.stop() };
}

export async function createCoreServices(config: PlatformConfig, options: CoreServicesOptions): Promise<CoreHandle> {
  const { mode, overrides = {} } = options;
  const logger = options.logger ?? createLogger('silent');
  const { url, embedded, stop: stopEmbedded } = await databaseUrlOf(config, mode, logger);
  // One backend session: a second connection inside a transaction would hang (core/db/connection-guard.ts).
  if (embedded) setConnectionGuard('throw');
  let database: DatabaseHandle | undefined;
  try {
    const masterKey = await loadMasterKey(config.masterKey, config.dataDir, embedded);
    database = openDatabase(url, mode === 'cli' ? 4 : embedded ? 8 : 20);
    if (options.migrate) await options.migrate(database.pool);
    else await migrate(database.pool, migrationSourcesOf(options.plugins));
    const secrets = createSecretBox(masterKey);
    const jobs = new JobService({
      pool: database.pool,
      connectionString: url,
      logger: logger.child({ component: 'jobs' }),
      pollIntervalMs: config.jobsPollIntervalMs,
      concurrency: mode === 'cli' ? 1 : config.jobsConcurrency,
      localQueueSize: mode === 'cli' ? 1 : config.jobsLocalQueueSize,
      shutdownTimeoutMs: config.shutdownTimeoutMs,
      workerStaleSeconds: config.jobsWorkerStaleSeconds,
      superviseIntervalSeconds: config.jobsSuperviseIntervalSeconds,
      embedded,
    });
    const tokens = new TokenService({
      issuer: config.tokenIssuer,
      ttlSeconds: config.tokenTtlSeconds,
      signingKey: secrets.deriveKey('platform-jwt'),
      embedSigningKey: secrets.deriveKey('embed-jwt'),
      serviceSecret: config.serviceJwtSecret,
      serviceIssuers: config.serviceJwtIssuers,
      serviceAudience: config.serviceJwtAudience,
      serviceMaxTtlSeconds: config.serviceJwtMaxTtlSeconds,
      oidcIssuerUrl: config.oidcIssuerUrl,
      oidcAudience: config.oidcAudience,
    });
    const extensions = new ExtensionRegistry();
    const events = new EventHub(logger, options.plugins.filter((plugin) => plugin.builtin).map((plugin) => plugin.name));
    let apiKeyResolver: ApiKeyResolver | undefined;
    const withTenantSession = createWithTenantSession(database.pool);
    const withTenant = createWithTenant(database.db, database.directTransaction);
    const clock = overrides.clock ?? systemClock;
    // Another process may share the database only when it is PostgreSQL; a CLI command serves no requests.
    const shared = mode === 'server' && !embedded;
    const invalidation = new InvalidationBus(database.db, { listen: mode === 'server' ? url : undefined, notifies: !embedded }, logger.child({ component: 'invalidation' }));
    const rateLimits = new SharedRateLimits(shared ? database.pool : undefined, logger.child({ component: 'rate-limits' }), () => clock.now().getTime());
    const core: CoreServices = {
      mode,
      config,
      db: database.db,
      pool: database.pool,
      withTenant,
      withTenantSession,
      tenantSql: createTenantSql(withTenantSession, {
        interactiveTimeoutSeconds: config.tenantSqlInteractiveTimeoutSeconds, maxConcurrentPerTenant: config.tenantSqlMaxConcurrentPerTenant, embedded,
      }),
      jobs,
      schedules: createSchedules({ withTenant, jobs, logger: logger.child({ component: 'schedules' }), now: () => clock.now() }),
      events,
      extensions: extensions.forPlugin('core'),
      functions: new FunctionRegistry({ db: database.db }),
      graphql: new GraphqlFacade(graphqlLimitsFrom(config.env), { graphiql: graphiqlEnabledFrom(config.env) }),
      auth: {
        tokens,
        setApiKeyResolver(resolver) {
          apiKeyResolver = resolver;
        },
      },
      secrets,
      tenants: new TenantDirectory(database.db),
      invalidation,
      rateLimits,
      logger,
      clock,
      http: { fetch: ({ allowPrivateNetworks }) => overrides.fetch ?? createGuardedFetch(allowPrivateNetworks) },
      overrides,
    };
    const views = new Map<string, CoreServices>();
    const opened = database;
    return {
      core,
      forPlugin(name) {
        let view = views.get(name);
        if (!view) views.set(name, (view = { ...core, events: events.forPlugin(name), extensions: extensions.forPlugin(name) }));
        return view;
      },
      jobs,
      database: opened,
      masterKey,
      embedded,
      extensions,
      apiKeyResolver: () => apiKeyResolver,
      async close() {
        rateLimits.stop();
        await invalidation.stop();
        await opened.close();
        await stopEmbedded?.();
      },
    };
  } catch (err) {
    await database?.close().catch(() => {});
    await stopEmbedded?.().catch(() => {});
    throw err;
  }
}
