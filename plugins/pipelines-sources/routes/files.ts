// Uploads for the csv pattern ("CSV or JSON Lines from a URL or an uploaded
// file"): the raw body is the file. Handlers hand over to the file service.
import type { Lifecycle, ServerRoute } from '@hapi/hapi';
import Boom from '@hapi/boom';
import { principalOf, tenantOf } from 'agent-platform/sdk';
import { editor, member } from '../access.ts';
import * as s from './files.schemas.ts';
import { UPLOAD_TYPES, type FileService } from '../services/files.ts';

const tags = ['api', 'sources'];
const fileIdOf = (params: unknown) => (params as { file_id: string }).file_id;

export function fileRoutes(files: FileService, maxBytes: number): ServerRoute[] {
  // hapi's own 413 (it stops reading past the limit, before the tenant is checked), in our words and with a stable code.
  const payloadFailure: Lifecycle.FailAction = (_request, _h, err) => {
    const status = Boom.isBoom(err as Error) ? (err as Boom.Boom).output.statusCode : 0;
    if (status === 413) throw withCode(Boom.entityTooLarge(`The file is larger than PIPELINES_MAX_UPLOAD_BYTES (${maxBytes} bytes)`), 'SOURCE_FILE_TOO_LARGE');
    throw err;
  };
  return [
    {
      method: 'POST', path: '/api/v1/sources/files',
      options: {
        auth: 'bearer', tags, description: 'Upload a CSV or JSON Lines file for the csv pattern (the body is the file); a source then names it with source_config.file_id',
        notes: `Content-Type: ${UPLOAD_TYPES.join(', ')}. 413 SOURCE_FILE_TOO_LARGE past PIPELINES_MAX_UPLOAD_BYTES; 415 SOURCE_FILE_TYPE_UNSUPPORTED for another type or bytes that are not UTF-8 text.`,
        plugins: { platform: editor },
        // The service checks the declared type (after the tenant checks): the override only keeps hapi's own 415
        // (the core allows JSON bodies only), which would answer before them, out of the way.
        payload: { parse: false, output: 'data', override: 'text/plain', allow: 'text/plain', maxBytes, failAction: payloadFailure },
        validate: { query: s.uploadQuery }, response: { schema: s.sourceFile },
      },
      handler: async (request, h) => {
        const content = (request.payload as Buffer | null) ?? Buffer.alloc(0);
        const contentType = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
        const stored = await files.upload(tenantOf(request), principalOf(request).sub ?? null, { name: (request.query as { name: string }).name, contentType, content });
        return h.response(stored).code(201);
      },
    },
    {
      method: 'GET', path: '/api/v1/sources/files/{file_id}',
      options: {
        auth: 'bearer', tags, description: 'An uploaded file\'s metadata (name, type, size)',
        plugins: { platform: member }, validate: { params: s.fileParams }, response: { schema: s.sourceFile },
      },
      handler: (request) => files.get(tenantOf(request), fileIdOf(request.params)),
    },
    {
      method: 'DELETE', path: '/api/v1/sources/files/{file_id}',
      options: {
        auth: 'bearer', tags, description: 'Delete an uploaded file (a source that names it fails its next sync with SOURCE_FILE_NOT_FOUND)',
        plugins: { platform: editor }, validate: { params: s.fileParams },
      },
      handler: async (request, h) => {
        await files.remove(tenantOf(request), fileIdOf(request.params));
        return h.response().code(204);
      },
    },
  ];
}

function withCode(error: Boom.Boom, code: string): Boom.Boom {
  (error.output.payload as unknown as Record<string, unknown>).code = code;
  return error;
}
