// Integrations: OpenAPI descriptions imported as functions that agents and
// workflow ACTION steps call through the core registry (a FunctionProvider),
// with credentials resolved per call (session, client, spec default).
// Registration only: the provider, the announce task, routes, GraphQL and the
// API other plugins use (server.plugins.integrations.api).
import type { Server } from '@hapi/hapi';
import { coreOf } from '../../core/plugin-contract.ts';
import type { ChatSessionOwnership, IntegrationsApi } from './api.ts';
import { createCallRowCache } from './calling/call-row-cache.ts';
import { createCaller } from './calling/caller.ts';
import { createTokenCache } from './calling/oauth2.ts';
import { createCatalogService } from './catalog-service.ts';
import type { IntegrationsContext } from './context.ts';
import { createEnvPolicy } from './env/policy.ts';
import { createCredentialsService, type SessionOwnerLookup } from './credentials-service.ts';
import { ANNOUNCE_TASK, emitNow } from './events.ts';
import { typeDefs, resolvers } from './graphql.ts';
import { createHttpClient } from './http-client.ts';
import { createImportService } from './import-service.ts';
import { optionsSchema, type IntegrationsOptions } from './options.ts';
import { createProvider } from './provider.ts';
import { credentialRoutes } from './routes/credentials.ts';
import { functionRoutes } from './routes/functions.ts';
import { specRoutes } from './routes/specs.ts';
import { createSyncService } from './sync-service.ts';
import { announceTask } from './tasks/integrations.announce.ts';
import './tables.ts';

export { cli } from './cli.ts';
export { optionsSchema };

export const plugin = {
  name: 'integrations',
  version: '0.1.0',
  dependencies: ['tenancy'],
  register(server: Server, options: IntegrationsOptions) {
    const core = coreOf(server);
    // Read once at boot: a malformed INTEGRATIONS_ENV_ALLOWLIST fails the boot with one line.
    const envPolicy = createEnvPolicy(core.config.env);
    const http = createHttpClient({
      allowPrivateNetworks: options.allowPrivateNetworks,
      timeoutMs: options.callTimeoutMs,
      maxResponseBytes: options.maxResponseBytes,
    });
    const rows = createCallRowCache({ maxAgeMs: options.callCacheMs });
    const caller = createCaller({
      withTenant: core.withTenant,
      rows,
      secrets: core.secrets,
      env: envPolicy,
      http,
      tokens: createTokenCache(http),
    });
    const { provider, invalidate } = createProvider(core.withTenant, caller);
    core.functions.addProvider(provider);

    const context: IntegrationsContext = {
      withTenant: core.withTenant,
      secrets: core.secrets,
      envPolicy,
      // Spec downloads get the spec limits, not the call limits.
      http: (request) => http({ timeoutMs: options.specTimeoutMs, ...request }),
      announce: emitNow(core.events),
      invalidate(tenantId) {
        invalidate(tenantId);
        rows.invalidate(tenantId);
      },
      platformNames: async (tenantId) =>
        new Set((await core.functions.list(tenantId, { source: 'platform' })).map((fn) => fn.name)),
      limits: {
        maxSpecBytes: options.maxSpecBytes,
        maxOperations: options.maxOperations,
        maxExternalDocuments: options.maxExternalDocuments,
        resolveTimeoutMs: options.specTimeoutMs,
      },
    };
    const sessionOwner: SessionOwnerLookup = async (tenantId, sessionId) => {
      const chat = (server.plugins as unknown as Record<string, { api?: ChatSessionOwnership } | undefined>).chat?.api;
      return chat?.sessionOwner ? chat.sessionOwner(tenantId, sessionId) : undefined;
    };
    const imports = createImportService(context);
    const sync = createSyncService(context);
    const catalog = createCatalogService(context);
    const credentials = createCredentialsService(context, sessionOwner);

    core.jobs.defineTask(ANNOUNCE_TASK, announceTask(core));
    server.route([
      ...specRoutes(imports, sync, catalog, options.maxSpecBytes),
      ...functionRoutes(catalog),
      ...credentialRoutes(credentials),
    ]);
    core.graphql.extend({ typeDefs, resolvers: resolvers(catalog, core.functions) });

    const api: IntegrationsApi = {
      setSessionCredential: (tenantId, sessionId, ownerSub, input) => credentials.setSessionCredential(tenantId, sessionId, ownerSub, input),
      listSessionCredentials: (tenantId, sessionId, ownerSub) => credentials.listSessionCredentials(tenantId, sessionId, ownerSub),
    };
    server.expose('api', api);
  },
};
