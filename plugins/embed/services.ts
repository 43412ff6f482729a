// The one factory of the embed plugin's services. The other plugins' apis
// (tenancy's service accounts, chat's sessions, ingestion's private uploads)
// are read when first used: the plugin's register passes them in.
import type { CoreServices } from 'agent-platform/sdk';
import type { ChatApi } from '../chat/api.ts';
import type { IngestionApi } from '../ingestion/api.ts';
import type { ServiceAccounts } from '../tenancy/api.ts';
import { ClientCache } from './client-cache.ts';
import { createConfigService } from './config-service.ts';
import { createCredentialsService } from './credentials-service.ts';
import { createManifestService } from './manifest-service.ts';
import type { EmbedOptions } from './options.ts';
import { createTokensService } from './tokens-service.ts';
import { createUploadsService } from './uploads-service.ts';

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
    manifests: createManifestService(options, cache),
    tokens: createTokensService(core, options, cache),
    uploads: createUploadsService(options, cache, peers),
  };
}

export type EmbedServices = ReturnType<typeof createServices>;
