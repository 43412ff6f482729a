// What CLI commands run against: the same database, keys and token service as
// the server, without the HTTP server or the queues' workers.
import { loadConfig, type PlatformConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { createWithTenant } from '../db/tenant.ts';
import { runningEmbeddedUrl, startEmbeddedDatabase } from '../db/embedded.ts';
import { createSecretBox, loadMasterKey } from '../secrets.ts';
import { TokenService } from '../auth/tokens.ts';
import { TenantDirectory } from '../tenants.ts';
import { SQL_DIR } from '../paths.ts';
import type { CoreServices } from '../plugin-contract.ts';

export type CliCore = Pick<CoreServices, 'config' | 'db' | 'pool' | 'withTenant' | 'secrets' | 'tenants'> & {
  auth: { tokens: TokenService; setApiKeyResolver(): void };
};

export interface CliContext {
  core: CliCore;
  close(): Promise<void>;
}

/**
 * Connects to DATABASE_URL; on the embedded default, to the running server's
 * PGlite socket when one is up (PGlite cannot open one data dir twice), else
 * starts PGlite itself for the length of the command.
 */
export async function openCliContext(config: PlatformConfig = loadConfig()): Promise<CliContext> {
  let url = config.databaseUrl;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!url) {
    url = await runningEmbeddedUrl(config.dataDir);
    if (!url) {
      const embedded = await startEmbeddedDatabase(config.dataDir);
      url = embedded.url;
      stopEmbedded = () => embedded.stop();
    }
  }
  const database = openDatabase(url, 4);
  await migrate(database.pool, SQL_DIR);
  const secrets = createSecretBox(await loadMasterKey(config.masterKey, config.dataDir, !config.databaseUrl));
  const tokens = new TokenService({
    issuer: config.tokenIssuer,
    ttlSeconds: config.tokenTtlSeconds,
    signingKey: secrets.deriveKey('platform-jwt'),
    serviceSecret: config.serviceJwtSecret,
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
    },
    async close() {
      await database.close();
      await stopEmbedded?.();
    },
  };
}
