// Files uploaded for the csv pattern: text (CSV or JSON Lines) stored per
// tenant; a csv source names one with `file_id` instead of a `url`.
import { domainError, notFound } from 'agent-platform/sdk';
import type { SourcesContext } from './context.ts';
import { filesStore } from '../store/files.ts';

export interface FileUpload {
  name: string;
  contentType: string;
  content: Buffer;
}

/** Content types an upload may declare (CSV or JSON Lines text). */
export const UPLOAD_TYPES = ['text/csv', 'text/plain', 'application/x-ndjson', 'application/jsonl', 'application/json-lines', 'text/tab-separated-values'];

export function createFileService(context: SourcesContext) {
  const { core } = context;

  const view = (row: { id: string; name: string; content_type: string; size_bytes: number | string; created_by: string | null; created_at: Date }) =>
    ({ ...row, size_bytes: Number(row.size_bytes) });

  return {
    upload(tenantId: string, sub: string | null, file: FileUpload) {
      if (!UPLOAD_TYPES.includes(file.contentType)) {
        throw domainError(415, `Upload CSV or JSON Lines: Content-Type one of ${UPLOAD_TYPES.join(', ')}`, 'SOURCE_FILE_TYPE_UNSUPPORTED');
      }
      // Text only: a NUL byte or bytes that are not UTF-8 mean a binary file (a spreadsheet, an archive) sent as CSV.
      if (file.content.includes(0) || !isUtf8(file.content)) {
        throw domainError(415, 'The file is not text: upload CSV or JSON Lines (UTF-8)', 'SOURCE_FILE_TYPE_UNSUPPORTED');
      }
      return core.withTenant(tenantId, async (trx) => view(await filesStore.insert(trx, {
        tenant_id: tenantId, name: file.name, content_type: file.contentType, content: file.content, created_by: sub,
      })));
    },

    get: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      const row = await filesStore.find(trx, id);
      if (!row) throw notFound(`No uploaded file "${id}"`, 'SOURCE_FILE_NOT_FOUND');
      return view(row);
    }),

    remove: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      const deleted = await filesStore.delete(trx, id);
      if (!deleted.numDeletedRows) throw notFound(`No uploaded file "${id}"`, 'SOURCE_FILE_NOT_FOUND');
    }),
  };
}

export type FileService = ReturnType<typeof createFileService>;

function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
