// REST routes of documents: the multipart upload into a collection, list, read
// (with revisions), chunks, delete, reingest, search.
import type { Lifecycle, ServerRoute } from '@hapi/hapi';
import { Readable } from 'node:stream';
import Boom from '@hapi/boom';
import { badRequest, tenantOf } from 'agent-platform/sdk';
import type { DocumentsService } from '../services/documents.ts';
import type { SearchService } from '../services/search.ts';
import type { IngestionSettings } from '../config/settings.ts';
import { ingestionErrors } from '../errors.ts';
import * as s from '../schemas.ts';

const admin = { tenant: 'required', role: 'admin' } as const;
const member = { tenant: 'required' } as const;
const tags = ['api', 'ingestion'];

/** hapi reads up to the limit plus room for the multipart envelope; the exact limit is checked on the file's bytes. */
const ENVELOPE_BYTES = 1024 * 1024;

/** A multipart file part as hapi streams it: the raw bytes, whatever Content-Type the client declared. */
interface FilePart {
  filename: string | undefined;
  bytes: Buffer;
}

async function filePart(value: unknown): Promise<FilePart> {
  // Streamed parts, not parsed ones: hapi would decode a text/* part as UTF-8
  // (mangling other encodings) and drop types it does not know (application/pdf).
  const part = value as (Readable & { hapi?: { filename?: string } }) | undefined;
  if (part instanceof Readable && part.hapi) {
    const chunks: Buffer[] = [];
    for await (const chunk of part) chunks.push(chunk as Buffer);
    return { filename: part.hapi.filename || undefined, bytes: Buffer.concat(chunks) };
  }
  throw badRequest('`file` must be a file part (with a filename) of a multipart/form-data body', 'VALIDATION_FAILED');
}

function metadataOf(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  try {
    const parsed = JSON.parse(String(value));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch {
    // reported below
  }
  throw badRequest('`metadata` must be a JSON object', 'VALIDATION_FAILED');
}

export function documentRoutes(documents: DocumentsService, settings: IngestionSettings, search: SearchService): ServerRoute[] {
  const tooLarge: Lifecycle.FailAction = (_request, _h, err) => {
    if (Boom.isBoom(err as Error) && (err as Boom.Boom).output.statusCode === 413) throw ingestionErrors.tooLarge(settings.maxDocSize);
    throw err;
  };
  return [
    {
      method: 'POST', path: '/api/admin/collections/{collection_id}/documents',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin },
        description: 'Upload a document (multipart field `file`; optional `name`, `metadata` as JSON): 202 with the document, `ingestion_status: pending`',
        notes: 'The content type is detected from the bytes. 413 over INGESTION_MAX_DOC_SIZE; 415 for an unsupported type; 429 (Retry-After) when the tenant already runs INGESTION_MAX_CONCURRENT ingestions.',
        payload: {
          maxBytes: settings.maxDocSize + ENVELOPE_BYTES,
          output: 'data',
          parse: true,
          multipart: { output: 'stream' },
          allow: ['multipart/form-data'],
          failAction: tooLarge,
        },
        validate: { params: s.collectionIdParams, payload: s.uploadPayload },
        response: { schema: s.document },
      },
      handler: async (request, h) => {
        const payload = request.payload as { file: unknown; name?: string; metadata?: unknown };
        const file = await filePart(payload.file);
        const created = await documents.upload(tenantOf(request), Number(request.params.collection_id), {
          bytes: file.bytes, filename: file.filename ?? 'document', name: payload.name, metadata: metadataOf(payload.metadata),
        });
        return h.response(created).code(202);
      },
    },
    {
      method: 'GET', path: '/api/admin/documents',
      options: {
        auth: 'bearer', tags, plugins: { platform: member }, description: 'List documents (of a collection tree, by status), newest first',
        validate: { query: s.documentListQuery }, response: { schema: s.listOf(s.document, 'DocumentList') },
      },
      handler: (request) => {
        const q = request.query as { skip: number; limit: number; collection_id?: number; include_descendants: boolean; status?: never; include_deleted: boolean };
        return documents.list(tenantOf(request), {
          collectionId: q.collection_id, includeDescendants: q.include_descendants, status: q.status, includeDeleted: q.include_deleted,
        }, q.skip, q.limit);
      },
    },
    {
      method: 'GET', path: '/api/admin/collections/{collection_id}/documents',
      options: {
        auth: 'bearer', tags, plugins: { platform: member }, description: 'List the documents of a collection (and its sub-collections unless include_descendants=false)',
        validate: { params: s.collectionIdParams, query: s.documentListQuery.fork(['collection_id'], (key) => key.forbidden()) },
        response: { schema: s.listOf(s.document, 'CollectionDocumentList') },
      },
      handler: (request) => {
        const q = request.query as { skip: number; limit: number; include_descendants: boolean; status?: never; include_deleted: boolean };
        return documents.list(tenantOf(request), {
          collectionId: Number(request.params.collection_id), includeDescendants: q.include_descendants, status: q.status, includeDeleted: q.include_deleted,
        }, q.skip, q.limit);
      },
    },
    {
      method: 'GET', path: '/api/admin/documents/{document_id}',
      options: {
        auth: 'bearer', tags, plugins: { platform: member }, description: 'One document with its revisions (newest first)',
        validate: { params: s.documentIdParams }, response: { schema: s.documentWithRevisions },
      },
      handler: (request) => documents.get(tenantOf(request), request.params.document_id as string),
    },
    {
      method: 'GET', path: '/api/admin/documents/{document_id}/chunks',
      options: {
        auth: 'bearer', tags, plugins: { platform: member }, description: 'Chunks of the latest successful revision, or of `revision` (its number)',
        validate: { params: s.documentIdParams, query: s.chunkListQuery },
      },
      handler: (request) => {
        const q = request.query as { skip: number; limit: number; revision?: number };
        return documents.chunks(tenantOf(request), request.params.document_id as string, q.revision, q.skip, q.limit);
      },
    },
    {
      method: 'DELETE', path: '/api/admin/documents/{document_id}',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin },
        description: 'Delete a document: it leaves listings and search; its revisions and chunks stay, so citations keep working',
        validate: { params: s.documentIdParams },
      },
      handler: async (request, h) => {
        await documents.remove(tenantOf(request), request.params.document_id as string);
        return h.response().code(204);
      },
    },
    {
      method: 'POST', path: '/api/admin/documents/{document_id}/reingest',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin },
        description: 'Re-ingest a document into a new revision (prior revisions kept); 409 while it is being ingested; 429 over the tenant quota',
        validate: { params: s.documentIdParams, query: s.tenantQuery }, response: { schema: s.document },
      },
      handler: async (request, h) => h.response(await documents.reingest(tenantOf(request), request.params.document_id as string)).code(202),
    },
    {
      method: 'GET', path: '/api/admin/search',
      options: {
        auth: 'bearer', tags, plugins: { platform: member }, description: 'Hybrid search over the latest revisions of live documents',
        validate: { query: s.searchQuery },
      },
      handler: (request) => {
        const q = request.query as { query: string; collection_id?: number[]; include_descendants: boolean; top_k: number };
        return search(tenantOf(request), { query: q.query, collection_ids: q.collection_id, include_descendants: q.include_descendants, top_k: q.top_k });
      },
    },
  ];
}
