// What the GraphQL lists and references read: keyset pages and counts of
// collections, documents and a revision's chunks, and batched lookups by id
// of collections, documents, revisions and chunks (one query per batch).
// Rows leave as the REST views (views/view.ts); a document row also carries
// its `created_key`, the time part of its cursor.
import type { CoreServices, KeysetPage } from 'agent-platform/sdk';
import { collectionsStore, type CollectionFilter } from '../store/collections.ts';
import { documentsStore, type DocumentKey } from '../store/documents.ts';
import { chunksStore, revisionsStore } from '../store/revisions.ts';
import { chunkView, collectionView, documentView, revisionView } from '../views/view.ts';
import { chunkedRevision, documentFilterOf, type DocumentListFilter } from './documents.ts';

export function createPagesService(core: CoreServices) {
  const { withTenant } = core;

  return {
    collections: (tenantId: string, filter: CollectionFilter, page: KeysetPage<number>) =>
      withTenant(tenantId, async (trx) => {
        const rows = await collectionsStore.page(trx, filter, page);
        const counts = await collectionsStore.documentCounts(trx, rows.map((row) => row.id));
        return rows.map((row) => collectionView(row, counts.get(row.id) ?? 0));
      }),

    countCollections: (tenantId: string, filter: CollectionFilter) => withTenant(tenantId, (trx) => collectionsStore.count(trx, filter)),

    documents: (tenantId: string, filter: DocumentListFilter, page: KeysetPage<DocumentKey>) =>
      withTenant(tenantId, async (trx) => {
        const rows = await documentsStore.page(trx, await documentFilterOf(trx, filter), page);
        return rows.map((row) => ({ ...documentView(row), created_key: row.created_key }));
      }),

    countDocuments: (tenantId: string, filter: DocumentListFilter) =>
      withTenant(tenantId, async (trx) => documentsStore.count(trx, await documentFilterOf(trx, filter))),

    /** The id of the revision whose chunks the document shows (chunkedRevision), or null when it has none yet. */
    chunkedRevisionId: (tenantId: string, documentId: string, revisionNumber: number | undefined) =>
      withTenant(tenantId, async (trx) => (await chunkedRevision(trx, documentId, revisionNumber))?.id ?? null),

    chunks: (tenantId: string, revisionId: string, page: KeysetPage<number>) =>
      withTenant(tenantId, async (trx) => (await chunksStore.pageOfRevision(trx, revisionId, page)).map((row) => chunkView(row, revisionId))),

    countChunks: (tenantId: string, revisionId: string) => withTenant(tenantId, (trx) => chunksStore.countOfRevision(trx, revisionId)),

    collectionsByIds: (tenantId: string, ids: readonly number[]) =>
      withTenant(tenantId, async (trx) => {
        const rows = await collectionsStore.byIds(trx, ids);
        const counts = await collectionsStore.documentCounts(trx, rows.map((row) => row.id));
        return rows.map((row) => collectionView(row, counts.get(row.id) ?? 0));
      }),

    documentsByIds: (tenantId: string, ids: readonly string[]) =>
      withTenant(tenantId, async (trx) => (await documentsStore.byIds(trx, ids)).map(documentView)),

    revisionsByIds: (tenantId: string, ids: readonly string[]) =>
      withTenant(tenantId, async (trx) => (await revisionsStore.byIds(trx, ids)).map((row) => revisionView(row, row.latest_revision_id))),

    chunksByIds: (tenantId: string, ids: readonly string[]) =>
      withTenant(tenantId, async (trx) => (await chunksStore.byIds(trx, ids)).map((row) => chunkView(row, row.revision_id))),
  };
}

export type PagesService = ReturnType<typeof createPagesService>;
