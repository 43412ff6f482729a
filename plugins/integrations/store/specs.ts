// kysely queries for integration_specs (tenant-owned: every query runs in a
// tenant transaction). The stored document is read only by re-sync.
import { sql } from 'kysely';
import type { KeysetPage, TenantTransaction } from 'agent-platform/sdk';
import type { SpecRecord } from './tables.ts';

const columns = [
  'id', 'name', 'prefix', 'source_kind', 'source_url', 'content_hash', 'format', 'title', 'api_version', 'base_url', 'settings',
  'auth', 'auth_value_sealed', 'auth_value_origin', 'status', 'warnings', 'last_sync_at', 'last_sync_result', 'last_error', 'version', 'created_at', 'updated_at',
] as const;

export type SpecRow = NonNullable<Awaited<ReturnType<typeof specsStore.getByName>>> & { function_count?: number; removed_count?: number };

/** What an import or re-import writes of a spec (auth_value_origin: origin-binding.ts). */
export type SpecValues = Pick<
  SpecRecord,
  | 'name' | 'prefix' | 'source_kind' | 'source_url' | 'document' | 'content_hash' | 'format' | 'title' | 'api_version' | 'base_url'
  | 'settings' | 'auth' | 'auth_value_sealed' | 'auth_value_origin' | 'warnings'
>;

const counts = sql<number>`(SELECT count(*)::int FROM integration_functions f WHERE f.spec_id = integration_specs.id AND f.status = 'active')`;
const removedCounts = sql<number>`(SELECT count(*)::int FROM integration_functions f WHERE f.spec_id = integration_specs.id AND f.status = 'removed')`;

function jsonValues(values: Partial<SpecValues>) {
  const { settings, auth, warnings, ...rest } = values;
  return {
    ...rest,
    ...(settings !== undefined ? { settings: JSON.stringify(settings) } : {}),
    ...(auth !== undefined ? { auth: JSON.stringify(auth) } : {}),
    ...(warnings !== undefined ? { warnings: JSON.stringify(warnings) } : {}),
  };
}

export const specsStore = {
  insert: (trx: TenantTransaction, id: string, tenantId: string, values: SpecValues) =>
    trx.insertInto('integration_specs')
      .values({
        ...values,
        id,
        tenant_id: tenantId,
        settings: JSON.stringify(values.settings),
        auth: JSON.stringify(values.auth),
        warnings: JSON.stringify(values.warnings),
        last_sync_at: new Date(),
        last_sync_result: 'imported',
      })
      .returning([...columns])
      .executeTakeFirstOrThrow(),

  update: (trx: TenantTransaction, id: string, values: Partial<SpecValues> & { last_sync_result?: string }) =>
    trx.updateTable('integration_specs')
      .set({
        ...jsonValues(values),
        status: 'active',
        last_error: null,
        last_sync_at: sql`now()`,
        version: sql`version + 1`,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .returning([...columns])
      .executeTakeFirstOrThrow(),

  /** A sync that found the same content: only the sync record changes. */
  touch: (trx: TenantTransaction, id: string) =>
    trx.updateTable('integration_specs')
      .set({ status: 'active', last_error: null, last_sync_at: sql`now()`, last_sync_result: 'skipped' })
      .where('id', '=', id)
      .returning([...columns])
      .executeTakeFirstOrThrow(),

  recordFailure: (trx: TenantTransaction, id: string, error: string) =>
    trx.updateTable('integration_specs')
      .set({ status: 'sync_failed', last_error: error, last_sync_at: sql`now()`, last_sync_result: 'failed' })
      .where('id', '=', id)
      .execute(),

  get: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('integration_specs').select([...columns]).select([counts.as('function_count'), removedCounts.as('removed_count')]).where('id', '=', id).executeTakeFirst(),

  getByName: (trx: TenantTransaction, name: string) =>
    trx.selectFrom('integration_specs').select([...columns]).where('name', '=', name).executeTakeFirst(),

  /** The spec with its stored document, locked while a sync or re-import rewrites it. */
  lock: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('integration_specs').select([...columns, 'document']).where('id', '=', id).forUpdate().executeTakeFirst(),

  lockByName: (trx: TenantTransaction, name: string) =>
    trx.selectFrom('integration_specs').select([...columns, 'document']).where('name', '=', name).forUpdate().executeTakeFirst(),

  /** The document and settings a sync needs, without locking (the fetch happens outside any transaction). */
  forSync: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('integration_specs').select([...columns, 'document']).where('id', '=', id).executeTakeFirst(),

  list: async (trx: TenantTransaction, skip: number, limit: number) => {
    const [items, total] = await Promise.all([
      trx.selectFrom('integration_specs').select([...columns]).select([counts.as('function_count'), removedCounts.as('removed_count')])
        .orderBy('name').offset(skip).limit(limit).execute(),
      trx.selectFrom('integration_specs').select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.n) };
  },

  /** A keyset page by name (GraphQL; KeysetPage: backward reads before the cursor, nearest first). */
  page: (trx: TenantTransaction, page: KeysetPage<string>) => {
    let query = trx.selectFrom('integration_specs').select([...columns]).select([counts.as('function_count'), removedCounts.as('removed_count')]);
    const forward = page.direction === 'forward';
    if (page.cursor !== undefined) query = query.where('name', forward ? '>' : '<', page.cursor);
    return query.orderBy('name', forward ? 'asc' : 'desc').limit(page.limit).execute();
  },

  count: async (trx: TenantTransaction) =>
    Number((await trx.selectFrom('integration_specs').select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),

  /** Several specs by id, with their function counts; missing ids are left out. */
  byIds: (trx: TenantTransaction, ids: readonly string[]) =>
    ids.length === 0
      ? Promise.resolve([])
      : trx.selectFrom('integration_specs').select([...columns]).select([counts.as('function_count'), removedCounts.as('removed_count')])
        .where('id', 'in', [...ids]).execute(),

  /** What a credential for the spec named `name` is bound to when it is entered (undefined: no such spec). */
  bindingSourceByName: (trx: TenantTransaction, name: string) =>
    trx.selectFrom('integration_specs').select(['base_url', 'auth']).where('name', '=', name).executeTakeFirst(),

  /** The specs whose default credential is the secret-store entry `key`. */
  bindingSourcesOfSecret: (trx: TenantTransaction, key: string) =>
    trx.selectFrom('integration_specs').select(['base_url', 'auth']).where(sql`auth->>'credential_source'`, '=', key).execute(),

  delete: (trx: TenantTransaction, id: string) =>
    trx.deleteFrom('integration_specs').where('id', '=', id).returning(['id', 'name']).executeTakeFirst(),
};
