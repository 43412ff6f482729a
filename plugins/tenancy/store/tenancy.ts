// kysely queries for the tenancy tables. Tenant-owned tables (clients,
// api_keys) take a tenant transaction; tenants and users are global.
import { sql, type Kysely } from 'kysely';
import { compiledStatement, type Database, type KeysetPage, type TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

type Db = Kysely<Database>;
export type Memberships = Record<string, { roles: string[] }>;

/** A client by id: the admin API's most frequent read, so built once. */
const clientById = compiledStatement<{ id: number }, { id: number; client_key: string; name: string; created_at: Date }>(
  (db, param) => db.selectFrom('clients').select(['id', 'client_key', 'name', 'created_at']).where('id', '=', param('id')),
);

export const tenantsStore = {
  insert: (db: Db, values: { id: string; display_name: string }) =>
    db.insertInto('tenants').values(values).returningAll().executeTakeFirstOrThrow(),
  list: async (db: Db, skip: number, limit: number) => {
    const [items, count] = await Promise.all([
      db.selectFrom('tenants').selectAll().orderBy('created_at').orderBy('id').offset(skip).limit(limit).execute(),
      db.selectFrom('tenants').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  },
  get: (db: Db, id: string) => db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst(),
  existing: async (db: Db, ids: string[]) =>
    ids.length === 0 ? [] : (await db.selectFrom('tenants').select('id').where('id', 'in', ids).execute()).map((r) => r.id),
};

export const clientsStore = {
  insert: (trx: TenantTransaction, values: { tenant_id: string; name: string; client_key: string }) =>
    trx.insertInto('clients').values(values).returning(['id', 'client_key', 'name', 'created_at']).executeTakeFirstOrThrow(),
  list: async (trx: TenantTransaction, skip: number, limit: number) => {
    const [items, count] = await Promise.all([
      trx.selectFrom('clients').select(['id', 'client_key', 'name', 'created_at']).orderBy('id').offset(skip).limit(limit).execute(),
      trx.selectFrom('clients').select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  },
  /** A keyset page by id (GraphQL connections): forward ascending after the cursor, backward descending before it. */
  page: (trx: TenantTransaction, page: KeysetPage<number>) => {
    const forward = page.direction === 'forward';
    let query = trx.selectFrom('clients').select(['id', 'client_key', 'name', 'created_at']);
    if (page.cursor !== undefined) query = query.where('id', forward ? '>' : '<', page.cursor);
    return query.orderBy('id', forward ? 'asc' : 'desc').limit(page.limit).execute();
  },
  count: async (trx: TenantTransaction) => Number((await trx.selectFrom('clients').select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
  get: async (trx: TenantTransaction, id: number) => (await clientById(trx, { id }))[0],
  rename: (trx: TenantTransaction, id: number, name: string) =>
    trx.updateTable('clients').set({ name }).where('id', '=', id).returning(['id', 'client_key', 'name', 'created_at']).executeTakeFirst(),
  delete: async (trx: TenantTransaction, id: number) =>
    (await trx.deleteFrom('clients').where('id', '=', id).executeTakeFirst()).numDeletedRows > 0n,
};

const apiKeyColumns = ['id', 'name', 'client_id', 'key_prefix', 'created_at', 'last_used_at', 'revoked_at'] as const;

export const apiKeysStore = {
  insert: (trx: TenantTransaction, values: { tenant_id: string; client_id: number; name: string; key_prefix: string; key_hash: string }) =>
    trx.insertInto('api_keys').values(values).returning([...apiKeyColumns]).executeTakeFirstOrThrow(),
  list: (trx: TenantTransaction, clientId?: number) => {
    let query = trx.selectFrom('api_keys').select([...apiKeyColumns]).orderBy('id');
    if (clientId) query = query.where('client_id', '=', clientId);
    return query.execute();
  },
  revoke: async (trx: TenantTransaction, id: number) =>
    (await trx.updateTable('api_keys').set({ revoked_at: sql`now()` }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst())
      .numUpdatedRows > 0n,
  findActive: (trx: TenantTransaction, keyHash: string) =>
    trx.selectFrom('api_keys').select(['id', 'client_id', 'last_used_at']).where('key_hash', '=', keyHash).where('revoked_at', 'is', null).executeTakeFirst(),
  touch: (trx: TenantTransaction, id: number) =>
    trx.updateTable('api_keys').set({ last_used_at: sql`now()` }).where('id', '=', id).execute(),
};

const userColumns = ['sub', 'display_name', 'organizations', 'service_account', 'created_at'] as const;

export const usersStore = {
  get: (db: Db, sub: string) => db.selectFrom('users').select([...userColumns, 'secret_hash']).where('sub', '=', sub).executeTakeFirst(),
  insert: (db: Db, values: { sub: string; display_name: string; organizations: Memberships; service_account: boolean; secret_hash: string | null }) =>
    db.insertInto('users').values({ ...values, organizations: JSON.stringify(values.organizations) }).returning([...userColumns]).executeTakeFirstOrThrow(),
  /** Adds or replaces the given memberships, keeping the others. */
  mergeMemberships: (db: Db, sub: string, displayName: string, organizations: Memberships) =>
    db.updateTable('users')
      .set({ display_name: displayName, organizations: sql`organizations || ${JSON.stringify(organizations)}::jsonb` as never })
      .where('sub', '=', sub)
      .returning([...userColumns])
      .executeTakeFirstOrThrow(),
  /** Replaces the roles of an existing membership; undefined when the user is no member of the tenant. */
  setRoles: (db: Db, sub: string, tenantId: string, roles: string[]) =>
    db.updateTable('users')
      .set({ organizations: sql`organizations || jsonb_build_object(${tenantId}::text, jsonb_build_object('roles', ${JSON.stringify(roles)}::jsonb))` as never })
      .where('sub', '=', sub)
      .where(sql<boolean>`organizations ? ${tenantId}`)
      .returning([...userColumns])
      .executeTakeFirst(),
  /** Removes one membership, keeping the user and its other memberships; false when it was no member. */
  removeMembership: async (db: Db, sub: string, tenantId: string) =>
    (await db.updateTable('users')
      .set({ organizations: sql`organizations - ${tenantId}::text` as never })
      .where('sub', '=', sub)
      .where(sql<boolean>`organizations ? ${tenantId}`)
      .executeTakeFirst()).numUpdatedRows > 0n,
  membersOf: async (db: Db, tenantId: string, skip: number, limit: number) => {
    const member = sql<boolean>`organizations ? ${tenantId}`;
    const [items, count] = await Promise.all([
      db.selectFrom('users').select([...userColumns]).where(member).orderBy('sub').offset(skip).limit(limit).execute(),
      db.selectFrom('users').select(db.fn.countAll<number>().as('n')).where(member).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  },
};

/** Service accounts other plugins create for one purpose (tenancy api.ts: the embed credential). */
export const serviceAccountsStore = {
  /** Replaces a service account's secret hash; false when it is no (such) service account. */
  setSecret: async (db: Db, sub: string, secretHash: string) =>
    (await db.updateTable('users').set({ secret_hash: secretHash }).where('sub', '=', sub).where('service_account', '=', true).executeTakeFirst())
      .numUpdatedRows > 0n,
  delete: async (db: Db, sub: string) =>
    (await db.deleteFrom('users').where('sub', '=', sub).where('service_account', '=', true).executeTakeFirst()).numDeletedRows > 0n,
};
