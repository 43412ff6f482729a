// Collections: a tenant's folders of documents, with integer ids, nesting
// (parent_id) and names unique among siblings. A collection with documents,
// sub-collections or sync sources cannot be deleted (409): documents are never
// dropped as a side effect.
import type { CoreServices } from 'agent-platform/sdk';
import { collectionsStore } from '../store/collections.ts';
import { collectionView } from '../views/view.ts';
import { ingestionErrors } from '../errors.ts';

export interface CollectionInput {
  name: string;
  description?: string;
  parent_id?: number | null;
  metadata?: Record<string, unknown>;
}

export function createCollectionsService(core: CoreServices) {
  return {
    async create(tenantId: string, input: CollectionInput) {
      return core.withTenant(tenantId, async (trx) => {
        if (input.parent_id != null && !(await collectionsStore.get(trx, input.parent_id))) throw ingestionErrors.collectionNotFound(input.parent_id);
        const row = await collectionsStore.insert(trx, {
          tenant_id: tenantId, parent_id: input.parent_id ?? null, name: input.name, description: input.description ?? '', metadata: input.metadata ?? {},
        });
        return collectionView(row, 0);
      });
    },

    async get(tenantId: string, id: number) {
      return core.withTenant(tenantId, async (trx) => {
        const row = await collectionsStore.get(trx, id);
        if (!row) throw ingestionErrors.collectionNotFound(id);
        const counts = await collectionsStore.documentCounts(trx, [id]);
        return collectionView(row, counts.get(id) ?? 0);
      });
    },

    async list(tenantId: string, filter: { parentId?: number | null }, skip: number, limit: number) {
      return core.withTenant(tenantId, async (trx) => {
        const { items, total } = await collectionsStore.list(trx, filter, skip, limit);
        const counts = await collectionsStore.documentCounts(trx, items.map((item) => item.id));
        return { items: items.map((item) => collectionView(item, counts.get(item.id) ?? 0)), total, skip, limit };
      });
    },

    async update(tenantId: string, id: number, input: Partial<CollectionInput>) {
      return core.withTenant(tenantId, async (trx) => {
        if (!(await collectionsStore.get(trx, id))) throw ingestionErrors.collectionNotFound(id);
        if (input.parent_id != null) {
          if (!(await collectionsStore.get(trx, input.parent_id))) throw ingestionErrors.collectionNotFound(input.parent_id);
          if (input.parent_id === id || (await collectionsStore.ancestors(trx, input.parent_id)).includes(id)) throw ingestionErrors.collectionCycle();
        }
        const row = await collectionsStore.update(trx, id, input);
        return collectionView(row!);
      });
    },

    async remove(tenantId: string, id: number) {
      await core.withTenant(tenantId, async (trx) => {
        if (!(await collectionsStore.get(trx, id))) throw ingestionErrors.collectionNotFound(id);
        const blocker = await collectionsStore.hasChildrenOrDocuments(trx, id);
        if (blocker) throw ingestionErrors.collectionNotEmpty(id, blocker);
        await collectionsStore.delete(trx, id);
      });
    },
  };
}

export type CollectionsService = ReturnType<typeof createCollectionsService>;
