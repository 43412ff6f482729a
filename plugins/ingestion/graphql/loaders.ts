// Per-request DataLoaders of what ingestion's GraphQL objects refer to
// (collections, documents, revisions, chunks by id): a list of search hits or
// documents reads each kind in one query. Each loader is of one request and
// one tenant.
import DataLoader from 'dataloader';
import type { Request } from '@hapi/hapi';
import type { GraphqlContext } from 'agent-platform/sdk';
import type { PagesService } from '../services/pages.ts';

type Views<K extends keyof PagesService> = Awaited<ReturnType<PagesService[K]>>;
export type CollectionView = Views<'collectionsByIds'>[number];
export type DocumentView = Views<'documentsByIds'>[number];
export type RevisionView = Views<'revisionsByIds'>[number];
export type ChunkView = Views<'chunksByIds'>[number];

export interface Loaders {
  collections: DataLoader<number, CollectionView | undefined>;
  documents: DataLoader<string, DocumentView | undefined>;
  revisions: DataLoader<string, RevisionView | undefined>;
  chunks: DataLoader<string, ChunkView | undefined>;
}

function byKey<K, V>(load: (keys: readonly K[]) => Promise<V[]>, keyOf: (value: V) => K) {
  return async (keys: readonly K[]) => {
    const found = new Map((await load(keys)).map((value) => [keyOf(value), value]));
    return keys.map((key) => found.get(key));
  };
}

export function ingestionLoaders(pages: PagesService) {
  const perRequest = new WeakMap<Request, Map<string, Loaders>>();
  return function loaders(context: GraphqlContext, tenantId: string): Loaders {
    let byTenant = perRequest.get(context.request);
    if (!byTenant) perRequest.set(context.request, (byTenant = new Map()));
    let found = byTenant.get(tenantId);
    if (!found) {
      found = {
        collections: new DataLoader(byKey((ids) => pages.collectionsByIds(tenantId, ids), (row) => row.collection_id)),
        documents: new DataLoader(byKey((ids) => pages.documentsByIds(tenantId, ids), (row) => row.document_id)),
        revisions: new DataLoader(byKey((ids) => pages.revisionsByIds(tenantId, ids), (row) => row.revision_id)),
        chunks: new DataLoader(byKey((ids) => pages.chunksByIds(tenantId, ids), (row) => row.chunk_id)),
      };
      byTenant.set(tenantId, found);
    }
    return found;
  };
}
