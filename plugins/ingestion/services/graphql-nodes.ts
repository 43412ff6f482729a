// The GraphQL objects ingestion lends other plugins' fields (api.ts
// collectionNode, revisionNode): rows of its own `Collection` and
// `DocumentRevision` types, read through its per-request loaders (one query
// per batch), under the guard of the routes that own them (GET
// /api/admin/collections, /api/admin/documents: a member of the tenant).
import type DataLoader from 'dataloader';
import { type GraphqlContext, isUuid, requireMember } from 'agent-platform/sdk';
import type { IngestionApi } from '../api.ts';
import { ingestionLoaders } from '../graphql/loaders.ts';
import type { PagesService } from './pages.ts';

const MAX_COLLECTION_ID = 2147483647;

/**
 * One key, in the request's batch, then forgotten: a subscription's context
 * lives as long as its operation, while a collection is renamed or a revision
 * stops being the latest meanwhile.
 */
async function loadFresh<K, V>(loader: DataLoader<K, V>, key: K): Promise<V> {
  try {
    return await loader.load(key);
  } finally {
    loader.clear(key);
  }
}

export function graphqlNodes(pages: PagesService): Pick<IngestionApi, 'collectionNode' | 'revisionNode'> {
  const loaders = ingestionLoaders(pages);
  return {
    async collectionNode(context: GraphqlContext, tenantId: string, collectionId: number) {
      requireMember(context, tenantId);
      if (!Number.isSafeInteger(collectionId) || collectionId < 1 || collectionId > MAX_COLLECTION_ID) return null;
      return (await loadFresh(loaders(context, tenantId).collections, collectionId)) ?? null;
    },
    async revisionNode(context: GraphqlContext, tenantId: string, revisionId: string) {
      requireMember(context, tenantId);
      if (!isUuid(revisionId)) return null;
      return (await loadFresh(loaders(context, tenantId).revisions, revisionId.toLowerCase())) ?? null;
    },
  };
}
