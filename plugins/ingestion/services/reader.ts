// read_document: a document's latest successful revision, as chunks (each with
// chunk_id and revision_id, so citations can point at what was read),
// optionally only one page or the sections whose title contains a text.
import { isUuid, notFound, type TenantTransaction } from 'agent-platform/sdk';
import { documentsStore } from '../store/documents.ts';
import { chunksStore, revisionsStore } from '../store/revisions.ts';
import { scopedStore } from '../store/scoped.ts';

export interface ReadRequest {
  document_id: string;
  page?: number;
  section?: string;
  offset?: number;
  max_chunks?: number;
}

/** `scope`: the reading context; a document private to another context is not found (store/scoped.ts). */
export async function readDocument(trx: TenantTransaction, request: ReadRequest, scope?: string) {
  const document = isUuid(request.document_id) ? await documentsStore.get(trx, request.document_id) : undefined;
  if (!document || document.deleted_at || !(await scopedStore.visible(trx, document.collection_id, scope))) {
    throw notFound(`Document not found: ${request.document_id}`, 'DOCUMENT_NOT_FOUND');
  }
  if (!document.latest_revision_id) {
    throw notFound(`Document ${document.id} has no ingested revision yet (status ${document.ingestion_status})`, 'DOCUMENT_NOT_READY');
  }
  const revision = (await revisionsStore.get(trx, document.latest_revision_id))!;
  const offset = request.offset ?? 0;
  const limit = Math.min(100, request.max_chunks ?? 20);
  const { rows, total } = await chunksStore.readPage(trx, revision.id, { page: request.page, section: request.section }, offset, limit);
  return {
    document_id: document.id,
    revision_id: revision.id,
    revision_number: revision.revision_number,
    doc_name: document.name,
    content_type: document.content_type,
    page_count: revision.page_count,
    sections: revision.sections.map((section) => ({ title: section.title, level: section.level, page: section.page })),
    chunks: rows.map((row) => ({ chunk_id: row.id, revision_id: revision.id, page: row.page, section: row.section, text: row.text })),
    total_chunks: total,
    next_offset: offset + rows.length < total ? offset + rows.length : null,
  };
}
