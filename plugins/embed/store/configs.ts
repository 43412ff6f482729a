// kysely queries for the embed plugin's tables. Configurations are tenant
// rows (a tenant transaction); the key directory is global and goes through
// the platform's own connection (core.db).
import { sql, type CoreServices, type TenantTransaction } from 'agent-platform/sdk';
import type { EmbedFeatures, EmbedTheme } from './tables.ts';
import './tables.ts';

type Db = CoreServices['db'];

const configColumns = [
  'client_id', 'enabled', 'allowed_origins', 'default_mode', 'features', 'theme', 'service_account_sub', 'credentials_updated_at',
  'version', 'created_at', 'updated_at',
] as const;

export type ConfigRow = Awaited<ReturnType<typeof configsStore.get>> & {};

export interface ConfigValues {
  enabled: boolean;
  allowed_origins: string[];
  default_mode: 'launcher' | 'inline';
  features: EmbedFeatures;
  theme: EmbedTheme;
}

export const configsStore = {
  get: (trx: TenantTransaction, clientId: number) =>
    trx.selectFrom('embed_configs').select([...configColumns]).where('client_id', '=', clientId).executeTakeFirst(),

  /** The row locked for a change; created with the defaults first when the client has none. */
  lockOrCreate: async (trx: TenantTransaction, tenantId: string, clientId: number) => {
    await trx.insertInto('embed_configs').values({ tenant_id: tenantId, client_id: clientId })
      .onConflict((oc) => oc.columns(['tenant_id', 'client_id']).doNothing()).execute();
    return (await trx.selectFrom('embed_configs').select([...configColumns]).where('client_id', '=', clientId).forUpdate().executeTakeFirst())!;
  },

  update: (trx: TenantTransaction, clientId: number, values: ConfigValues) =>
    trx.updateTable('embed_configs')
      .set({
        enabled: values.enabled, allowed_origins: values.allowed_origins, default_mode: values.default_mode,
        features: JSON.stringify(values.features), theme: JSON.stringify(values.theme),
        version: sql`version + 1`, updated_at: sql`now()`,
      })
      .where('client_id', '=', clientId)
      .returning([...configColumns])
      .executeTakeFirstOrThrow(),

  /** Links a service account when none is linked (false: another one got there first). */
  linkServiceAccount: async (trx: TenantTransaction, clientId: number, sub: string) =>
    (await trx.updateTable('embed_configs')
      .set({ service_account_sub: sub, credentials_updated_at: sql`now()`, version: sql`version + 1`, updated_at: sql`now()` })
      .where('client_id', '=', clientId).where('service_account_sub', 'is', null)
      .returning(['credentials_updated_at']).executeTakeFirst())?.credentials_updated_at ?? undefined,

  touchCredentials: (trx: TenantTransaction, clientId: number) =>
    trx.updateTable('embed_configs')
      .set({ credentials_updated_at: sql`now()`, version: sql`version + 1`, updated_at: sql`now()` })
      .where('client_id', '=', clientId)
      .returning(['credentials_updated_at']).executeTakeFirstOrThrow(),

  unlinkServiceAccount: (trx: TenantTransaction, clientId: number) =>
    trx.updateTable('embed_configs')
      .set({ service_account_sub: null, credentials_updated_at: sql`now()`, version: sql`version + 1`, updated_at: sql`now()` })
      .where('client_id', '=', clientId)
      .execute(),
};

export interface DirectoryEntry {
  client_key: string;
  tenant_id: string;
  client_id: number;
  tenant_display_name: string | null;
}

export const directoryStore = {
  /** A configured client by key or by id, with its tenant's display name. */
  find: async (db: Db, by: { clientKey: string } | { clientId: number }): Promise<DirectoryEntry | undefined> => {
    let query = db.selectFrom('embed_client_keys as k').innerJoin('tenants as t', 't.id', 'k.tenant_alias')
      .select(['k.client_key', 'k.tenant_alias as tenant_id', 'k.client_id', 't.display_name as tenant_display_name']);
    query = 'clientKey' in by ? query.where('k.client_key', '=', by.clientKey) : query.where('k.client_id', '=', by.clientId);
    const row = await query.executeTakeFirst();
    return row ? { ...row, client_id: Number(row.client_id) } : undefined;
  },

  put: (db: Db, entry: { client_key: string; tenant_alias: string; client_id: number }) =>
    db.insertInto('embed_client_keys').values(entry)
      .onConflict((oc) => oc.column('client_key').doUpdateSet({ tenant_alias: entry.tenant_alias, client_id: entry.client_id }))
      .execute(),
};

export const clientsStore = {
  /** A client of the tenant (the core's clients table, under the tenant's row-level security). */
  get: (trx: TenantTransaction, clientId: number) =>
    trx.selectFrom('clients').select(['id', 'client_key']).where('id', '=', clientId).executeTakeFirst(),
  /** The tenant's default client: its oldest (the one chat acts for without selected_client). */
  oldest: (trx: TenantTransaction) =>
    trx.selectFrom('clients').select(['id', 'client_key']).orderBy('id').limit(1).executeTakeFirst(),
  /** The client's row as the tenancy plugin's GraphQL Client shows it. */
  record: (trx: TenantTransaction, clientId: number) =>
    trx.selectFrom('clients').select(['id', 'client_key', 'name', 'created_at']).where('id', '=', clientId).executeTakeFirst(),
};
