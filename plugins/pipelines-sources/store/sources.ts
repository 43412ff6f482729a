// SQL of sources (pipeline_sources), in tenant transactions.
import { sql, type Actor, type KeysetPage, type TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

const columns = ['id', 'tenant_id', 'name', 'pattern_id', 'source_config', 'credential_ref', 'state', 'created_by', 'acts_for', 'created_at', 'updated_at'] as const;

export interface NewSource {
  id: string;
  tenant_id: string;
  name: string;
  pattern_id: string;
  source_config: Record<string, unknown>;
  credential_ref: string | null;
  created_by: string | null;
  acts_for: Actor | null;
}

export const sourcesStore = {
  insert: (trx: TenantTransaction, source: NewSource) =>
    trx.insertInto('pipeline_sources').values({
      ...source, source_config: JSON.stringify(source.source_config), acts_for: source.acts_for ? JSON.stringify(source.acts_for) : null,
    }).returning(columns).executeTakeFirstOrThrow(),

  find: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('pipeline_sources').select(columns).where('id', '=', id).executeTakeFirst(),

  findByName: (trx: TenantTransaction, name: string) =>
    trx.selectFrom('pipeline_sources').select(columns).where('name', '=', name).executeTakeFirst(),

  lock: (trx: TenantTransaction, id: string) =>
    trx.selectFrom('pipeline_sources').select(columns).where('id', '=', id).forUpdate().executeTakeFirst(),

  list: (trx: TenantTransaction, page: { limit: number; offset: number }) =>
    trx.selectFrom('pipeline_sources').select(columns).orderBy('created_at').orderBy('id').limit(page.limit).offset(page.offset).execute(),

  /**
   * A keyset page in list order (oldest first, by id within a timestamp):
   * forward, the sources after the cursor source; backward, those before it,
   * nearest first. The cursor row's timestamp is compared in SQL (a
   * JavaScript Date drops Postgres' microseconds).
   */
  page: (trx: TenantTransaction, page: KeysetPage<string>) => {
    const forward = page.direction === 'forward';
    let query = trx.selectFrom('pipeline_sources').select(columns);
    if (page.cursor !== undefined) {
      const cursor = sql`(SELECT c.created_at, c.id FROM pipeline_sources c WHERE c.id = ${page.cursor}::uuid)`;
      query = query.where(forward ? sql<boolean>`(created_at, id) > ${cursor}` : sql<boolean>`(created_at, id) < ${cursor}`);
    }
    const order = forward ? 'asc' : 'desc';
    return query.orderBy('created_at', order).orderBy('id', order).limit(page.limit).execute();
  },

  /** The sources of these ids (those that exist). */
  findMany: (trx: TenantTransaction, ids: string[]) =>
    ids.length === 0 ? Promise.resolve([]) : trx.selectFrom('pipeline_sources').select(columns).where('id', 'in', ids).execute(),

  count: async (trx: TenantTransaction) =>
    (await trx.selectFrom('pipeline_sources').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n,

  update: (trx: TenantTransaction, id: string, change: { name?: string; source_config?: Record<string, unknown>; credential_ref?: string | null; acts_for?: Actor | null }) =>
    trx.updateTable('pipeline_sources')
      .set({
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.source_config !== undefined ? { source_config: JSON.stringify(change.source_config) } : {}),
        ...(change.acts_for !== undefined ? { acts_for: change.acts_for ? JSON.stringify(change.acts_for) : null } : {}),
        ...(change.credential_ref !== undefined ? { credential_ref: change.credential_ref } : {}),
        updated_at: sql`now()` as never,
      })
      .where('id', '=', id).returning(columns).executeTakeFirstOrThrow(),

  markActive: (trx: TenantTransaction, id: string) =>
    trx.updateTable('pipeline_sources').set({ state: 'active' }).where('id', '=', id).where('state', '=', 'ready').execute(),

  delete: (trx: TenantTransaction, id: string) =>
    trx.deleteFrom('pipeline_sources').where('id', '=', id).executeTakeFirst(),

  /** The names of sources, by id. */
  names: async (trx: TenantTransaction, ids: string[]) => new Map(ids.length === 0 ? [] : (
    await trx.selectFrom('pipeline_sources').select(['id', 'name']).where('id', 'in', ids).execute()).map((row) => [row.id, row.name] as const)),

  /** How many sources use a credential. */
  referencing: async (trx: TenantTransaction, ref: string) =>
    (await trx.selectFrom('pipeline_sources').select(sql<number>`count(*)::int`.as('n')).where('credential_ref', '=', ref).executeTakeFirstOrThrow()).n,
};

export type SourceRow = NonNullable<Awaited<ReturnType<typeof sourcesStore.find>>>;
