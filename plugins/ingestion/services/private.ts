// Private collections (api.ts PrivateUploads): one per execution context
// (`scope`: `chat_session:<id>` for the embed plugin's uploads), created on its
// first upload, never listed to the tenant's surfaces, searched only from that
// context, deleted with it. Uploads are checked and ingested exactly as any
// other (size, type from the bytes, quota, the staged pipeline).
import { badRequest, type TenantTransaction } from 'agent-platform/sdk';
import type { PreparedUpload, PrivateDocument, PrivateUploads } from '../api.ts';
import { blobsStore, documentsStore } from '../store/documents.ts';
import { scopedStore } from '../store/scoped.ts';
import { beginRun, requireSlot, type RunDeps } from '../pipeline/runs.ts';
import { EVENT_SOURCE } from '../event-types.ts';
import type { DocumentsService } from './documents.ts';

const SCOPE = /^[a-z_]{1,40}:[A-Za-z0-9_.:-]{1,150}$/;

/** The scope of an execution context: what its private collection is keyed by. */
export const scopeOf = (context: { type: string; id: string } | undefined): string | undefined =>
  context ? `${context.type}:${context.id}` : undefined;

function checkScope(scope: string): void {
  if (!SCOPE.test(scope)) throw badRequest(`Malformed scope: ${scope.slice(0, 80)}`, 'VALIDATION_FAILED');
}

export function createPrivateUploads(deps: RunDeps, documents: DocumentsService): PrivateUploads {
  const { core } = deps;
  return {
    prepare: (input) => documents.check(input),

    async store(trx: TenantTransaction, tenantId: string, scope: string, upload: PreparedUpload): Promise<PrivateDocument> {
      checkScope(scope);
      const collection = await scopedStore.ensure(trx, tenantId, scope, `Uploads of ${scope}`);
      await requireSlot(deps, trx, tenantId);
      await blobsStore.put(trx, tenantId, upload.hash, upload.bytes);
      const inserted = await documentsStore.insert(trx, {
        tenant_id: tenantId, collection_id: collection.id, name: upload.filename, filename: upload.filename, content_type: upload.contentType,
        size_bytes: upload.bytes.length, content_hash: upload.hash, metadata: { scope }, page_count: null, run_id: null,
      });
      const document = await beginRun(deps, trx, tenantId, inserted.id, 'pending');
      await core.events.emit(trx, tenantId, {
        type: 'document.uploaded',
        source: EVENT_SOURCE,
        data: {
          document_id: document.id, collection_id: collection.id, content_type: upload.contentType,
          page_count: document.page_count, filename: upload.filename, size_bytes: upload.bytes.length,
        },
      });
      return {
        collection_id: collection.id, document_id: document.id, filename: upload.filename,
        content_type: upload.contentType, ingestion_status: document.ingestion_status,
      };
    },

    async deleteScope(trx: TenantTransaction, _tenantId: string, scope: string): Promise<number> {
      checkScope(scope);
      const collection = await scopedStore.byScope(trx, scope);
      if (!collection) return 0;
      const docs = await scopedStore.documentsOf(trx, collection.id);
      // A run in flight finds its document gone and stops (pipeline/stages.ts `current`).
      await scopedStore.deleteDocuments(trx, docs.map((doc) => doc.id));
      for (const hash of new Set(docs.map((doc) => doc.content_hash))) await blobsStore.dropIfUnused(trx, hash);
      await scopedStore.deleteCollection(trx, collection.id);
      return docs.length;
    },
  };
}
