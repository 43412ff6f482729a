// Documents: upload (bytes checked, typed from their content, stored once per
// hash, a run started in the same transaction), list, read with revisions and
// chunks, delete (search forgets it; revisions and chunks stay for citations),
// reingest (a new revision; 409 while ingesting; 429 over the quota).
import { createHash } from 'node:crypto';
import { badRequest, type TenantTransaction } from 'agent-platform/sdk';
import { collectionsStore } from '../store/collections.ts';
import { documentsStore, blobsStore, type DocumentFilter } from '../store/documents.ts';
import { revisionsStore, chunksStore } from '../store/revisions.ts';
import { quotaStore } from '../store/quota.ts';
import { detectContentType } from '../parsers/content-type.ts';
import { ingestionErrors } from '../errors.ts';
import { EVENT_SOURCE } from '../event-types.ts';
import { beginRun, requireSlot, type RunDeps } from '../pipeline/runs.ts';
import { chunkView, documentView, revisionView } from '../views/view.ts';
import type { IngestionStatus } from '../store/tables.ts';

/** Which documents a list holds: of a collection (and its sub-collections), by status. */
export interface DocumentListFilter {
  collectionId?: number;
  includeDescendants: boolean;
  status?: IngestionStatus;
  includeDeleted?: boolean;
}

/** The store's filter of a list; 404 when the collection named does not exist. */
export async function documentFilterOf(trx: TenantTransaction, filter: DocumentListFilter): Promise<DocumentFilter> {
  const query: DocumentFilter = { status: filter.status, includeDeleted: filter.includeDeleted };
  if (filter.collectionId !== undefined) {
    if (!(await collectionsStore.get(trx, filter.collectionId))) throw ingestionErrors.collectionNotFound(filter.collectionId);
    query.collectionIds = await collectionsStore.expand(trx, [filter.collectionId], filter.includeDescendants);
  }
  return query;
}

export interface UploadInput {
  bytes: Buffer;
  filename: string;
  name?: string;
  metadata?: Record<string, unknown>;
}

function safeFilename(filename: string | undefined): string {
  // Only the last path component of what the client sent, without control characters.
  const base = (filename ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return clean || 'document';
}

/**
 * The revision whose chunks a document shows: the one numbered
 * `revisionNumber`, else the latest successful one (undefined when there is
 * none yet); 404 for an unknown document or revision number.
 */
export async function chunkedRevision(trx: TenantTransaction, documentId: string, revisionNumber: number | undefined) {
  const document = await documentsStore.get(trx, documentId);
  if (!document) throw ingestionErrors.documentNotFound(documentId);
  const revision = revisionNumber !== undefined
    ? await revisionsStore.byNumber(trx, documentId, revisionNumber)
    : document.latest_revision_id ? await revisionsStore.get(trx, document.latest_revision_id) : undefined;
  if (revisionNumber !== undefined && !revision) throw ingestionErrors.revisionNotFound(revisionNumber);
  return revision;
}

export function createDocumentsService(deps: RunDeps) {
  const { core, settings } = deps;

  async function checked(input: UploadInput) {
    if (input.bytes.length > settings.maxDocSize) throw ingestionErrors.tooLarge(settings.maxDocSize);
    if (input.bytes.length === 0) throw badRequest('The uploaded file is empty', 'EMPTY_DOCUMENT');
    const filename = safeFilename(input.filename);
    const detection = await detectContentType(input.bytes, filename);
    if (!detection.ok) throw ingestionErrors.unsupported(detection.detected);
    return { filename, contentType: detection.contentType, hash: createHash('sha256').update(input.bytes).digest('hex') };
  }

  return {
    /** The checks of every upload, before any transaction (private uploads use them too). */
    check: async (input: { bytes: Buffer; filename: string }) => ({ ...(await checked(input)), bytes: input.bytes }),

    async upload(tenantId: string, collectionId: number, input: UploadInput) {
      const { filename, contentType, hash } = await checked(input);
      return core.withTenant(tenantId, async (trx) => {
        if (!(await collectionsStore.get(trx, collectionId))) throw ingestionErrors.collectionNotFound(collectionId);
        await requireSlot(deps, trx, tenantId);
        await blobsStore.put(trx, tenantId, hash, input.bytes);
        const inserted = await documentsStore.insert(trx, {
          tenant_id: tenantId, collection_id: collectionId, name: input.name ?? filename, filename, content_type: contentType,
          size_bytes: input.bytes.length, content_hash: hash, metadata: input.metadata ?? {}, page_count: null, run_id: null,
        });
        const document = await beginRun(deps, trx, tenantId, inserted.id, 'pending');
        await core.events.emit(trx, tenantId, {
          type: 'document.uploaded',
          source: EVENT_SOURCE,
          data: {
            document_id: document.id, collection_id: collectionId, content_type: contentType,
            page_count: document.page_count, filename, size_bytes: input.bytes.length,
          },
        });
        return documentView(document);
      });
    },

    async list(tenantId: string, filter: DocumentListFilter, skip: number, limit: number) {
      return core.withTenant(tenantId, async (trx) => {
        const { items, total } = await documentsStore.list(trx, await documentFilterOf(trx, filter), skip, limit);
        return { items: items.map(documentView), total, skip, limit };
      });
    },

    async get(tenantId: string, documentId: string) {
      return core.withTenant(tenantId, async (trx) => {
        const document = await documentsStore.get(trx, documentId);
        if (!document) throw ingestionErrors.documentNotFound(documentId);
        const revisions = await revisionsStore.listOf(trx, documentId);
        return { ...documentView(document), revisions: revisions.map((revision) => revisionView(revision, document.latest_revision_id)) };
      });
    },

    /** Chunks of a revision (the latest successful one unless a number is given). */
    async chunks(tenantId: string, documentId: string, revisionNumber: number | undefined, skip: number, limit: number) {
      return core.withTenant(tenantId, async (trx) => {
        const revision = await chunkedRevision(trx, documentId, revisionNumber);
        if (!revision) return { document_id: documentId, revision_id: null, revision_number: null, items: [], total: 0, skip, limit };
        const [rows, total] = await Promise.all([
          chunksStore.ofRevision(trx, revision.id, skip, limit),
          chunksStore.countOfRevision(trx, revision.id),
        ]);
        return {
          document_id: documentId, revision_id: revision.id, revision_number: revision.revision_number,
          items: rows.map((row) => chunkView(row, revision.id)),
          total, skip, limit,
        };
      });
    },

    async reingest(tenantId: string, documentId: string) {
      return core.withTenant(tenantId, async (trx) => {
        const document = await documentsStore.lock(trx, documentId);
        if (!document) throw ingestionErrors.documentNotFound(documentId);
        if (document.deleted_at) throw ingestionErrors.deleted(documentId);
        // Spec: from any state but ingesting. A pending document's queued run
        // is superseded (its job finds another run id and does nothing), and
        // the slot it held is handed back before the new run asks for one.
        if (document.ingestion_status === 'ingesting') throw ingestionErrors.ingesting(documentId);
        if (document.run_id) await quotaStore.release(trx, documentId);
        await requireSlot(deps, trx, tenantId);
        return documentView(await beginRun(deps, trx, tenantId, documentId, 'ingesting'));
      });
    },

    async remove(tenantId: string, documentId: string) {
      await core.withTenant(tenantId, async (trx) => {
        const document = await documentsStore.lock(trx, documentId);
        if (!document || document.deleted_at) throw ingestionErrors.documentNotFound(documentId);
        await documentsStore.markDeleted(trx, documentId);
        await chunksStore.retire(trx, documentId);
        await quotaStore.release(trx, documentId);
        await revisionsStore.failBuilding(trx, documentId, 'The document was deleted during ingestion');
        await blobsStore.dropIfUnused(trx, document.content_hash);
      });
    },
  };
}

export type DocumentsService = ReturnType<typeof createDocumentsService>;
