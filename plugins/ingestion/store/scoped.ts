// kysely queries for private collections: collections that belong to one
// execution context (`scope`, e.g. `chat_session:<id>`; sql/0003). The other
// stores leave them out of every listing; search and read_document reach
// them only from their own context.
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

type Trx = TenantTransaction;

export const scopedStore = {
  byScope: (trx: Trx, scope: string) =>
    trx.selectFrom('ingestion_collections').select(['id', 'name']).where('scope', '=', scope).executeTakeFirst(),

  /** The context's collection, created on first use (a concurrent creator's row is returned instead). */
  ensure: async (trx: Trx, tenantId: string, scope: string, name: string) => {
    await trx.insertInto('ingestion_collections')
      .values({ tenant_id: tenantId, parent_id: null, name, description: `Private to ${scope}`, metadata: JSON.stringify({}), scope })
      .onConflict((oc) => oc.columns(['tenant_id', 'scope']).where('scope', 'is not', null).doNothing())
      .execute();
    return (await scopedStore.byScope(trx, scope))!;
  },

  /**
   * The collections a search from `scope` may read: undefined when that is all
   * of them (no other context has a private collection: the common case, one
   * indexed probe), else the tenant's own collections and the scope's.
   */
  searchable: async (trx: Trx, scope: string | undefined): Promise<Set<number> | undefined> => {
    const others = await trx.selectFrom('ingestion_collections').select('id')
      .where('scope', 'is not', null)
      .where(sql<boolean>`scope IS DISTINCT FROM ${scope ?? null}`)
      .limit(1).executeTakeFirst();
    if (!others) return undefined;
    let query = trx.selectFrom('ingestion_collections').select('id');
    query = scope === undefined ? query.where('scope', 'is', null) : query.where((eb) => eb.or([eb('scope', 'is', null), eb('scope', '=', scope)]));
    return new Set((await query.execute()).map((row) => row.id));
  },

  /** Whether a collection may be read from `scope`: the tenant's own, or the scope's private one. */
  visible: async (trx: Trx, collectionId: number, scope: string | undefined) => {
    const row = await trx.selectFrom('ingestion_collections').select('scope').where('id', '=', collectionId).executeTakeFirst();
    return row !== undefined && (row.scope === null || row.scope === scope);
  },

  /** The documents of the scope's collection (for deletion), with their content hashes. */
  documentsOf: (trx: Trx, collectionId: number) =>
    trx.selectFrom('ingestion_documents').select(['id', 'content_hash']).where('collection_id', '=', collectionId).execute(),

  /** Deletes documents for good (revisions, chunks and page images go with them by cascade) and their quota slots. */
  deleteDocuments: async (trx: Trx, ids: string[]) => {
    if (ids.length === 0) return;
    await trx.deleteFrom('ingestion_quota_slots').where('document_id', 'in', ids).execute();
    await trx.deleteFrom('ingestion_documents').where('id', 'in', ids).execute();
  },

  deleteCollection: (trx: Trx, id: number) => trx.deleteFrom('ingestion_collections').where('id', '=', id).execute(),
};
