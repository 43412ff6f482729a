// A client's embed configuration, set by an
// administrator: read, and changed field by field (fields left out are kept).
// A change emits definition.updated and reaches this process's cache at once
// (other processes within the cache TTL).
import { notFound, parseOrigins, type CoreServices, type TenantTransaction } from 'agent-platform/sdk';
import type { ClientCache } from '../cache/client-cache.ts';
import { EVENT_SOURCE } from '../event-types.ts';
import type { EmbedOptions } from '../options.ts';
import { clientsStore, configsStore, directoryStore, type ConfigValues } from '../store/configs.ts';
import type { EmbedFeatures, EmbedTheme } from '../store/tables.ts';
import { configView } from '../views/views.ts';

export interface ConfigInput {
  enabled?: boolean;
  allowed_origins?: string[];
  default_mode?: 'launcher' | 'inline';
  features?: Partial<EmbedFeatures>;
  theme?: EmbedTheme;
}

const FIELDS = ['enabled', 'allowed_origins', 'default_mode', 'features', 'theme'] as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function createConfigService(core: Pick<CoreServices, 'db' | 'withTenant' | 'events'>, options: EmbedOptions, cache: ClientCache) {
  /** The tenant's client, 404 when it has none with this id. */
  async function clientOf(trx: TenantTransaction, clientId: number) {
    const client = await clientsStore.get(trx, clientId);
    if (!client) throw notFound(`Client not found: ${clientId}`, 'CLIENT_NOT_FOUND');
    return { id: Number(client.id), client_key: client.client_key };
  }

  return {
    clientOf,

    /** The tenant's client as a whole row (GraphQL's EmbedConfig.client); undefined when there is none. */
    client: (tenantId: string, clientId: number) => core.withTenant(tenantId, (trx) => clientsStore.record(trx, clientId)),

    get: (tenantId: string, clientId: number) => core.withTenant(tenantId, async (trx) => {
      const client = await clientOf(trx, clientId);
      return configView(client.client_key, client.id, await configsStore.get(trx, clientId));
    }),

    /** Checks a configuration as `put` would, changing nothing: a bad origin is a 400 naming it. */
    check(input: ConfigInput) {
      if (input.allowed_origins) parseOrigins(input.allowed_origins, options.allowLocalhostOrigins);
    },

    async put(tenantId: string, clientId: number, input: ConfigInput) {
      // Checked before anything changes: a bad origin is a 400 naming it.
      const origins = input.allowed_origins && parseOrigins(input.allowed_origins, options.allowLocalhostOrigins);
      const client = await core.withTenant(tenantId, (trx) => clientOf(trx, clientId));
      // The public endpoints find the client from its key through this directory (global, idempotent;
      // written first, on its own connection: an entry without an enabled configuration serves nothing).
      await directoryStore.put(core.db, { client_key: client.client_key, tenant_alias: tenantId, client_id: client.id });
      const view = await core.withTenant(tenantId, async (trx) => {
        await clientOf(trx, clientId); // still there (a 404, not a foreign-key error, when deleted meanwhile)
        const current = await configsStore.lockOrCreate(trx, tenantId, clientId);
        const next: ConfigValues = {
          enabled: input.enabled ?? current.enabled,
          allowed_origins: origins ?? current.allowed_origins,
          default_mode: input.default_mode ?? current.default_mode,
          features: { ...current.features, ...input.features },
          theme: input.theme ?? current.theme,
        };
        const changed = FIELDS.filter((field) => !same(next[field], current[field]));
        if (changed.length === 0) return configView(client.client_key, client.id, current);
        const row = await configsStore.update(trx, clientId, next);
        await core.events.emit(trx, tenantId, {
          type: 'definition.updated',
          source: EVENT_SOURCE,
          data: { definition_type: 'embed_config', name: client.client_key, client_id: client.id, version: row.version, changed_fields: changed },
        });
        return configView(client.client_key, client.id, row);
      });
      await cache.changed(view.client_id, view.client_key);
      return view;
    },
  };
}

export type ConfigService = ReturnType<typeof createConfigService>;
