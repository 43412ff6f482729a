// The implementation of api.ts (register's `ingestion` dependency), over the
// caller's tenant transaction; the GraphQL nodes are graphql-nodes.ts's.
import { isUuid } from 'agent-platform/sdk';
import type { IngestionApi, PrivateUploads } from '../api.ts';
import { chunkRecords } from '../store/chunk-records.ts';
import { documentsStore } from '../store/documents.ts';
import { hybridSearch, type SearchDeps } from '../search/search.ts';
import { graphqlNodes } from './graphql-nodes.ts';
import type { PagesService } from './pages.ts';

export function createIngestionApi(deps: SearchDeps, privateUploads: PrivateUploads, pages: PagesService): IngestionApi {
  return {
    privateUploads,
    ...graphqlNodes(pages),
    async getChunk(trx, chunkId) {
      return (await chunkRecords(trx, [chunkId]))[0];
    },
    getChunks: (trx, chunkIds) => chunkRecords(trx, chunkIds),
    async getDocument(trx, documentId) {
      if (!isUuid(documentId)) return undefined;
      const row = await documentsStore.get(trx, documentId);
      return row ? {
        document_id: row.id, name: row.name, collection_id: row.collection_id, content_type: row.content_type,
        ingestion_status: row.ingestion_status, deleted: row.deleted_at !== null,
      } : undefined;
    },
    search: (trx, request) => hybridSearch(trx, deps, request),
  };
}
