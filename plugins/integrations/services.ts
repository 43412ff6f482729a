// The one factory of the integrations plugin's services: its register and its
// CLI commands both build them here, from the core's services and the
// manifest's options. The CLI has no event backend: there the definition
// events of what a command changes are enqueued in its transaction and
// emitted by the server's workers. It sees no platform functions (they are
// registered by the server's plugins), so an import from the CLI does not
// check names against them.
import type { CoreServices } from 'agent-platform/sdk';
import type { ChatApi } from '../chat/api.ts';
import { createCallRowCache } from './calling/call-row-cache.ts';
import { createCaller } from './calling/caller.ts';
import { createTokenCache } from './calling/oauth2.ts';
import { createCatalogService } from './services/catalog.ts';
import type { IntegrationsContext } from './services/context.ts';
import { createCredentialsService, type SessionOwnerLookup } from './services/credentials.ts';
import { createEnvPolicy } from './env/policy.ts';
import { emitLater, emitNow } from './announce/events.ts';
import { createHttpClient } from './calling/http-client.ts';
import { createImportService } from './services/import.ts';
import type { IntegrationsOptions } from './options.ts';
import { createProvider } from './calling/provider.ts';
import { createSyncService } from './services/sync.ts';

/** What this plugin asks of the chat plugin's API, when chat is loaded. */
type ChatSessionOwnership = Pick<ChatApi, 'sessionOwner'>;

export function createServices(core: CoreServices, options: IntegrationsOptions, chat: () => ChatSessionOwnership | undefined = () => undefined) {
  // A malformed allowlist (INTEGRATIONS_ENV_ALLOWLIST) fails the boot with one line.
  const envPolicy = createEnvPolicy(core.config.env, options.envAllowlist);
  const http = createHttpClient({
    fetch: core.http.fetch({ allowPrivateNetworks: options.allowPrivateNetworks }),
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

  const context: IntegrationsContext = {
    withTenant: core.withTenant,
    secrets: core.secrets,
    envPolicy,
    // Spec downloads get the spec limits, not the call limits.
    http: (request) => http({ timeoutMs: options.specTimeoutMs, ...request }),
    announce: core.mode === 'cli' ? emitLater(core.jobs) : emitNow(core.events),
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
  // Who owns a chat session, when the chat plugin is loaded (its API).
  const sessionOwner: SessionOwnerLookup = async (tenantId, sessionId) => {
    const api = chat();
    return api ? api.sessionOwner(tenantId, sessionId) : undefined;
  };
  return {
    options,
    caller,
    provider,
    context,
    imports: createImportService(context),
    sync: createSyncService(context),
    catalog: createCatalogService(context),
    credentials: createCredentialsService(context, sessionOwner),
  };
}

export type IntegrationsServices = ReturnType<typeof createServices>;
