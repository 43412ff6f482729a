// kysely queries for client credentials, session credentials and the
// tenant's secret store. Values are sealed by the service before they get
// here and are never selected by the listing queries.
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

export const clientCredentialsStore = {
  /** Inserts or replaces; `created` tells which. */
  upsert: (trx: TenantTransaction, values: {
    tenant_id: string; client_id: number; service_name: string; header: string | null; value_sealed: string; bound_origin: string;
  }) =>
    trx.insertInto('integration_client_credentials')
      .values(values)
      .onConflict((oc) => oc.columns(['tenant_id', 'client_id', 'service_name']).doUpdateSet({
        header: values.header, value_sealed: values.value_sealed, bound_origin: values.bound_origin, updated_at: sql`now()`,
      }))
      .returning(['client_id', 'service_name', 'header', 'created_at', 'updated_at', sql<boolean>`(xmax = 0)`.as('created')])
      .executeTakeFirstOrThrow(),

  list: (trx: TenantTransaction, clientId: number) =>
    trx.selectFrom('integration_client_credentials')
      .select(['client_id', 'service_name', 'header', 'created_at', 'updated_at'])
      .where('client_id', '=', clientId)
      .orderBy('service_name')
      .execute(),

  delete: (trx: TenantTransaction, clientId: number, serviceName: string) =>
    trx.deleteFrom('integration_client_credentials').where('client_id', '=', clientId).where('service_name', '=', serviceName)
      .returning('service_name').executeTakeFirst(),

  clientExists: async (trx: TenantTransaction, clientId: number) =>
    (await trx.selectFrom('clients').select('id').where('id', '=', clientId).executeTakeFirst()) !== undefined,
};

export const sessionCredentialsStore = {
  /** Who owns a session's credentials (the principal that stored the first one). */
  owner: async (trx: TenantTransaction, sessionId: string) =>
    (await trx.selectFrom('integration_session_credentials').select('owner_sub').where('session_id', '=', sessionId).limit(1).executeTakeFirst())?.owner_sub,

  upsert: (trx: TenantTransaction, values: {
    tenant_id: string; session_id: string; service_name: string; header: string | null; value_sealed: string; bound_origin: string;
    owner_sub: string; expires_at: Date | null;
  }) =>
    trx.insertInto('integration_session_credentials')
      .values(values)
      .onConflict((oc) => oc.columns(['tenant_id', 'session_id', 'service_name']).doUpdateSet({
        header: values.header, value_sealed: values.value_sealed, bound_origin: values.bound_origin, expires_at: values.expires_at, updated_at: sql`now()`,
      }))
      .returning(['session_id', 'service_name', 'header', 'expires_at', 'created_at', 'updated_at', sql<boolean>`(xmax = 0)`.as('created')])
      .executeTakeFirstOrThrow(),

  list: (trx: TenantTransaction, sessionId: string) =>
    trx.selectFrom('integration_session_credentials')
      .select(['session_id', 'service_name', 'header', 'expires_at', 'created_at', 'updated_at'])
      .where('session_id', '=', sessionId)
      .orderBy('service_name')
      .execute(),

  delete: (trx: TenantTransaction, sessionId: string, serviceName: string) =>
    trx.deleteFrom('integration_session_credentials').where('session_id', '=', sessionId).where('service_name', '=', serviceName)
      .returning('service_name').executeTakeFirst(),
};

export const secretsStore = {
  upsert: (trx: TenantTransaction, values: { tenant_id: string; key: string; value_sealed: string; bound_origins: string[] }) =>
    trx.insertInto('integration_secrets')
      .values(values)
      .onConflict((oc) => oc.columns(['tenant_id', 'key']).doUpdateSet({
        value_sealed: values.value_sealed, bound_origins: values.bound_origins, updated_at: sql`now()`,
      }))
      .returning(['key', 'created_at', 'updated_at', sql<boolean>`(xmax = 0)`.as('created')])
      .executeTakeFirstOrThrow(),

  list: (trx: TenantTransaction) =>
    trx.selectFrom('integration_secrets').select(['key', 'created_at', 'updated_at']).orderBy('key').execute(),

  delete: (trx: TenantTransaction, key: string) =>
    trx.deleteFrom('integration_secrets').where('key', '=', key).returning('key').executeTakeFirst(),
};
