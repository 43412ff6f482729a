// The chat playground of the platform's own console: the tenant's default
// client and the manifest the widget would read, for a signed-in member. The
// console's widget then acts with the member's own token (host-token mode,
// without the embed marker): nothing is minted, no origin is allowlisted and
// the client's embed configuration is not changed, so the playground works
// whether or not the client is enabled for embedding in other sites.
import { forbidden, notFound, type CoreServices, type Principal } from 'agent-platform/sdk';
import { manifestOf } from '../cache/client-cache.ts';
import { clientsStore, configsStore } from '../store/configs.ts';
import { configView } from '../views/views.ts';

/** People signed in to the console: platform or OIDC users (not service accounts), and the super-admin. */
const isPerson = (principal: Principal) => principal.kind === 'super_admin' || (principal.kind === 'user' && !principal.serviceAccount);

export function createPlaygroundService(core: Pick<CoreServices, 'withTenant'>) {
  return {
    async read(tenantId: string, principal: Principal) {
      if (!isPerson(principal)) throw forbidden('The chat playground is for people signed in to the console', 'HUMAN_REQUIRED');
      return core.withTenant(tenantId, async (trx) => {
        const client = await clientsStore.oldest(trx);
        if (!client) throw notFound('The tenant has no client: create one (POST /api/admin/clients)', 'CLIENT_NOT_FOUND');
        const clientId = Number(client.id);
        const view = configView(client.client_key, clientId, await configsStore.get(trx, clientId));
        const manifest = manifestOf({
          tenantId, clientId, clientKey: client.client_key, tenantDisplayName: null, enabled: view.enabled,
          allowedOrigins: new Set(), defaultMode: 'inline', features: view.features, theme: view.theme,
          serviceAccountSub: null, version: view.version,
        });
        return { client_id: clientId, client_key: client.client_key, manifest };
      });
    },
  };
}

export type PlaygroundService = ReturnType<typeof createPlaygroundService>;
