// What CLI commands run against: the same database, keys and token service as
// the server, without the HTTP server or the queues' workers.
import { loadConfig, type PlatformConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { createWithTenant } from '../db/tenant.ts';
import { EmbeddedBusyError, runningEmbeddedUrl, startEmbeddedDatabase } from '../db/embedded.ts';
import { createSecretBox, loadMasterKey } from '../secrets.ts';
import { TokenService } from '../auth/tokens.ts';
import { TenantDirectory } from '../tenants.ts';
import { readManifest } from '../manifest.ts';
import { migrationSourcesOf, resolvePlugins } from '../plugin-loader.ts';
import type { CoreServices } from '../plugin-contract.ts';
import { JobService } from '../jobs/index.ts';
import type { JobsApi } from '../jobs/types.ts';
import { createLogger } from '../logging.ts';

export type CliCore = Pick<CoreServices, 'config' | 'db' | 'pool' | 'withTenant' | 'secrets' | 'tenants'> & {
  auth: { tokens: TokenService; setApiKeyResolver(): void };
  /** Enqueue only: the CLI runs no workers; the server's workers run what it enqueues. */
  jobs: Pick<JobsApi, 'enqueue' | 'removeJob'>;
};

export interface CliContext {
  core: CliCore;
  close(): Promise<void>;
}

/**
 * On the embedded default: the running server's PGlite socket when one is up
 * (PGlite cannot open one data dir twice), else PGlite opened here for the
 * length of the command (after any other command using it is done).
 */
async function embeddedUrl(dataDir: string): Promise<{ url: string; stop?: () => Promise<void> }> {
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

/** Connects to DATABASE_URL, or to the embedded default (see embeddedUrl). */
export async function openCliContext(config: PlatformConfig = loadConfig()): Promise<CliContext> {
  let url = config.databaseUrl;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!url) ({ url, stop: stopEmbedded } = await embeddedUrl(config.dataDir));
  const database = openDatabase(url, 4);
  const plugins = await resolvePlugins(await readManifest(config.manifestPath, config.env), config.rootDir);
  await migrate(database.pool, migrationSourcesOf(plugins));
  const secrets = createSecretBox(await loadMasterKey(config.masterKey, config.dataDir, !config.databaseUrl));
  const tokens = new TokenService({
    issuer: config.tokenIssuer,
    ttlSeconds: config.tokenTtlSeconds,
    signingKey: secrets.deriveKey('platform-jwt'),
    serviceSecret: config.serviceJwtSecret,
    serviceIssuers: config.serviceJwtIssuers,
    serviceAudience: config.serviceJwtAudience,
    serviceMaxTtlSeconds: config.serviceJwtMaxTtlSeconds,
    oidcIssuerUrl: config.oidcIssuerUrl,
    oidcAudience: config.oidcAudience,
  });
  return {
    core: {
      config,
      db: database.db,
      pool: database.pool,
      withTenant: createWithTenant(database.db),
      secrets,
      tenants: new TenantDirectory(database.db),
      auth: { tokens, setApiKeyResolver() {} },
      jobs: new JobService({
        pool: database.pool,
        connectionString: url,
        logger: createLogger('silent'),
        pollIntervalMs: config.jobsPollIntervalMs,
        concurrency: 1,
        shutdownTimeoutMs: config.shutdownTimeoutMs,
        workerStaleSeconds: config.jobsWorkerStaleSeconds,
        embedded: !config.databaseUrl,
      }),
    },
    async close() {
      await database.close();
      await stopEmbedded?.();
    },
  };
}
