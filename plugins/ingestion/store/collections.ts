// kysely queries for collections. Tenant-owned: every query takes a tenant
// transaction (row-level security scopes it). Private collections (a `scope`,
// store/scoped.ts) are left out of get and list: the tenant's surfaces never
// see them.
import { sql } from 'kysely';
import type { KeysetPage, TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

type Trx = TenantTransaction;

/** Which collections a list holds: all, the children of one (parentId), or the top-level ones (null). */
export interface CollectionFilter {
  parentId?: number | null;
}

function filtered(trx: Trx, filter: CollectionFilter) {
  let query = trx.selectFrom('ingestion_collections').where('scope', 'is', null);
  if (filter.parentId === null) query = query.where('parent_id', 'is', null);
  else if (filter.parentId !== undefined) query = query.where('parent_id', '=', filter.parentId);
  return query;
}

const columns = ['id', 'parent_id', 'name', 'description', 'metadata', 'created_at', 'updated_at'] as const;

export type CollectionRow = Awaited<ReturnType<typeof collectionsStore.get>> & {};

export const collectionsStore = {
  insert: (trx: Trx, values: { tenant_id: string; parent_id: number | null; name: string; description: string; metadata: Record<string, unknown> }) =>
    trx.insertInto('ingestion_collections')
      .values({ ...values, metadata: JSON.stringify(values.metadata) })
      .returning([...columns])
      .executeTakeFirstOrThrow(),

  get: (trx: Trx, id: number) =>
    trx.selectFrom('ingestion_collections').select([...columns]).where('id', '=', id).where('scope', 'is', null).executeTakeFirst(),

  list: async (trx: Trx, filter: CollectionFilter, skip: number, limit: number) => {
    const query = filtered(trx, filter);
    const [items, count] = await Promise.all([
      query.select([...columns]).orderBy('id').offset(skip).limit(limit).execute(),
      query.select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  },

  /** A keyset page in id order (KeysetPage: backward reads before the cursor, nearest first). */
  page: (trx: Trx, filter: CollectionFilter, page: KeysetPage<number>) => {
    let query = filtered(trx, filter).select([...columns]);
    const forward = page.direction === 'forward';
    if (page.cursor !== undefined) query = query.where('id', forward ? '>' : '<', page.cursor);
    return query.orderBy('id', forward ? 'asc' : 'desc').limit(page.limit).execute();
  },

  count: async (trx: Trx, filter: CollectionFilter) =>
    Number((await filtered(trx, filter).select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),

  /** Several collections by id (the tenant's own, not private ones); missing ids are left out. */
  byIds: (trx: Trx, ids: readonly number[]) =>
    ids.length === 0
      ? Promise.resolve([])
      : trx.selectFrom('ingestion_collections').select([...columns]).where('id', 'in', [...ids]).where('scope', 'is', null).execute(),

  update: (trx: Trx, id: number, values: { name?: string; description?: string; metadata?: Record<string, unknown>; parent_id?: number | null }) =>
    trx.updateTable('ingestion_collections')
      .set({
        ...(values.name !== undefined ? { name: values.name } : {}),
        ...(values.description !== undefined ? { description: values.description } : {}),
        ...(values.metadata !== undefined ? { metadata: JSON.stringify(values.metadata) } : {}),
        ...(values.parent_id !== undefined ? { parent_id: values.parent_id } : {}),
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .returning([...columns])
      .executeTakeFirst(),

  delete: async (trx: Trx, id: number) =>
    (await trx.deleteFrom('ingestion_collections').where('id', '=', id).executeTakeFirst()).numDeletedRows > 0n,

  /** The collection and (with descendants) every collection under it, at any depth. */
  expand: async (trx: Trx, ids: number[], descendants: boolean): Promise<number[]> => {
    if (ids.length === 0) return [];
    if (!descendants) {
      const rows = await trx.selectFrom('ingestion_collections').select('id').where('id', 'in', ids).execute();
      return rows.map((row) => row.id);
    }
    const { rows } = await sql<{ id: number }>`
      WITH RECURSIVE tree AS (
        SELECT id FROM ingestion_collections WHERE id = ANY(${ids}::int[])
        UNION
        SELECT c.id FROM ingestion_collections c JOIN tree t ON c.parent_id = t.id
      )
      SELECT id FROM tree`.execute(trx);
    return rows.map((row) => row.id);
  },

  /** The ancestors of a collection, nearest first (for cycle checks when re-parenting). */
  ancestors: async (trx: Trx, id: number): Promise<number[]> => {
    const { rows } = await sql<{ id: number }>`
      WITH RECURSIVE up AS (
        SELECT id, parent_id, 0 AS depth FROM ingestion_collections WHERE id = ${id}
        UNION ALL
        SELECT c.id, c.parent_id, up.depth + 1 FROM ingestion_collections c JOIN up ON c.id = up.parent_id WHERE up.depth < 100
      )
      SELECT id FROM up WHERE id <> ${id} ORDER BY depth`.execute(trx);
    return rows.map((row) => row.id);
  },

  hasChildrenOrDocuments: async (trx: Trx, id: number) => {
    const child = await trx.selectFrom('ingestion_collections').select('id').where('parent_id', '=', id).limit(1).executeTakeFirst();
    if (child) return 'sub-collections';
    const document = await trx.selectFrom('ingestion_documents').select('id').where('collection_id', '=', id).limit(1).executeTakeFirst();
    if (document) return 'documents';
    const source = await trx.selectFrom('ingestion_sync_sources').select('id').where('collection_id', '=', id).limit(1).executeTakeFirst();
    return source ? 'sync sources' : undefined;
  },

  /** Document counts per status for many collections at once (list views). */
  documentCounts: async (trx: Trx, ids: number[]) => {
    if (ids.length === 0) return new Map<number, number>();
    const rows = await trx.selectFrom('ingestion_documents')
      .select(['collection_id', trx.fn.countAll<number>().as('n')])
      .where('collection_id', 'in', ids).where('deleted_at', 'is', null)
      .groupBy('collection_id').execute();
    return new Map(rows.map((row) => [row.collection_id, Number(row.n)]));
  },
};
