// Embed credentials: a dedicated
// service account per client (tenancy api.ts), linked to the client, that a
// host backend trades for a token (client_credentials at token_endpoint) to
// mint embed tokens. Provision (none → created), rotate (a new secret; the
// old one stops working), revoke (the service account is deleted and the link
// cleared: its secret trades for nothing, its tokens mint nothing, and the
// embed tokens it minted stop working). Only a human: an admin's own bearer
// token or the super-admin (the route lets admins in; service accounts are
// refused here). The secret is in the provision and rotate answers only.
import { conflict, forbidden, notFound, randomToken, type CoreServices, type Principal } from 'agent-platform/sdk';
import type { ServiceAccounts } from '../../tenancy/api.ts';
import type { ClientCache } from '../cache/client-cache.ts';
import type { ConfigService } from './config.ts';
import { EVENT_SOURCE } from '../event-types.ts';
import { configsStore, directoryStore } from '../store/configs.ts';
import { utcWithoutZone } from '../views/views.ts';

type Core = Pick<CoreServices, 'db' | 'withTenant' | 'events'>;

function requireHuman(principal: Principal): void {
  if (principal.kind === 'super_admin') return;
  if (principal.kind === 'user' && !principal.serviceAccount) return;
  throw forbidden('Embed credentials are managed by a human administrator\'s token or the super-admin', 'HUMAN_ADMIN_REQUIRED');
}

const notProvisioned = (clientId: number) =>
  notFound(`Client ${clientId} has no embed credential: provision one first`, 'EMBED_CREDENTIALS_NOT_FOUND');

export function createCredentialsService(core: Core, config: ConfigService, cache: ClientCache, accounts: () => ServiceAccounts) {
  const emit = (tenantId: string, type: string, data: Record<string, unknown>) =>
    core.withTenant(tenantId, (trx) => core.events.emit(trx, tenantId, { type, source: EVENT_SOURCE, data }));

  return {
    async provision(principal: Principal, tenantId: string, clientId: number, tokenEndpoint: string) {
      requireHuman(principal);
      const client = await core.withTenant(tenantId, async (trx) => {
        const found = await config.clientOf(trx, clientId);
        const current = await configsStore.get(trx, clientId);
        if (current?.service_account_sub) {
          throw conflict(`Client ${clientId} already has an embed credential: rotate or revoke it`, 'EMBED_CREDENTIALS_EXIST');
        }
        return found;
      });
      await directoryStore.put(core.db, { client_key: client.client_key, tenant_alias: tenantId, client_id: client.id });
      const sub = `embed-${tenantId}-${client.id}-${randomToken(6).replace(/[^A-Za-z0-9]/g, 'x')}`;
      // A member of no tenant: its token mints this client's embed tokens (checked by sub) and reaches nothing else.
      const secret = await accounts().create({ sub, displayName: `Embed credential of client ${client.client_key}` });
      const updatedAt = await core.withTenant(tenantId, async (trx) => {
        await configsStore.lockOrCreate(trx, tenantId, clientId);
        return configsStore.linkServiceAccount(trx, clientId, sub);
      });
      if (!updatedAt) {
        // Another provision linked its own first: this one's account goes.
        await accounts().remove(sub);
        throw conflict(`Client ${clientId} already has an embed credential: rotate or revoke it`, 'EMBED_CREDENTIALS_EXIST');
      }
      await cache.changed(client.id, client.client_key);
      await emit(tenantId, 'embed.credentials.provisioned', { client_id: client.id, client_key: client.client_key, service_account_client_id: sub });
      return {
        client_id: client.id, client_key: client.client_key, service_account_client_id: sub, client_secret: secret.clientSecret,
        token_endpoint: tokenEndpoint, created: true, rotated: false, embed_token_credentials_updated_at: utcWithoutZone(updatedAt),
      };
    },

    async rotate(principal: Principal, tenantId: string, clientId: number, tokenEndpoint: string) {
      requireHuman(principal);
      const { client, sub } = await core.withTenant(tenantId, async (trx) => {
        const found = await config.clientOf(trx, clientId);
        const linked = (await configsStore.get(trx, clientId))?.service_account_sub;
        if (!linked) throw notProvisioned(clientId);
        return { client: found, sub: linked };
      });
      const secret = await accounts().rotate(sub);
      const updated = await core.withTenant(tenantId, (trx) => configsStore.touchCredentials(trx, clientId));
      await cache.changed(client.id, client.client_key);
      await emit(tenantId, 'embed.credentials.rotated', { client_id: client.id, client_key: client.client_key, service_account_client_id: sub });
      return {
        client_id: client.id, client_key: client.client_key, service_account_client_id: sub, client_secret: secret.clientSecret,
        token_endpoint: tokenEndpoint, created: false, rotated: true, embed_token_credentials_updated_at: utcWithoutZone(updated.credentials_updated_at),
      };
    },

    async revoke(principal: Principal, tenantId: string, clientId: number) {
      requireHuman(principal);
      const { client, sub } = await core.withTenant(tenantId, async (trx) => {
        const found = await config.clientOf(trx, clientId);
        const linked = (await configsStore.get(trx, clientId))?.service_account_sub;
        if (!linked) throw notProvisioned(clientId);
        await configsStore.unlinkServiceAccount(trx, clientId);
        return { client: found, sub: linked };
      });
      await accounts().remove(sub);
      await cache.changed(client.id, client.client_key);
      await emit(tenantId, 'embed.credentials.revoked', { client_id: client.id, client_key: client.client_key, service_account_client_id: sub });
      return { client_id: client.id, client_key: client.client_key, service_account_client_id: sub, revoked: true };
    },
  };
}

export type CredentialsService = ReturnType<typeof createCredentialsService>;
