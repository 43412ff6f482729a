// The one factory of the embed plugin's services. The other plugins' apis
// (tenancy's service accounts, chat's sessions, ingestion's private uploads)
// are read when first used: the plugin's register passes them in.
import type { CoreServices } from 'agent-platform/sdk';
import type { ChatApi } from '../chat/api.ts';
import type { IngestionApi } from '../ingestion/api.ts';
import type { ServiceAccounts } from '../tenancy/api.ts';
import { ClientCache } from './cache/client-cache.ts';
import { createConfigService } from './services/config.ts';
import { createCredentialsService } from './services/credentials.ts';
import { createManifestService } from './services/manifest.ts';
import { createPlaygroundService } from './services/playground.ts';
import type { EmbedOptions } from './options.ts';
import { createTokensService } from './services/tokens.ts';
import { createUploadsService } from './services/uploads.ts';

export interface PeerApis {
  serviceAccounts: () => ServiceAccounts;
  chat: () => ChatApi;
  ingestion: () => IngestionApi | undefined;
}

export function createServices(core: CoreServices, options: EmbedOptions, peers: PeerApis) {
  const cache = new ClientCache(core, options.configCacheTtlSeconds);
  const config = createConfigService(core, options, cache);
  return {
    cache,
    config,
    credentials: createCredentialsService(core, config, cache, peers.serviceAccounts),
    manifests: createManifestService(core, options, cache),
    playground: createPlaygroundService(core),
    tokens: createTokensService(core, options, cache),
    uploads: createUploadsService(options, cache, peers),
  };
}

export type EmbedServices = ReturnType<typeof createServices>;
