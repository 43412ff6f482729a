// The embed routes a host page and a host backend call:
// the public manifest, minting embed tokens, scoped uploads.
import { Readable } from 'node:stream';
import Boom from '@hapi/boom';
import type { Lifecycle, Request, ServerRoute } from 'agent-platform/sdk';
import { badRequest, principalOf, tenantOf } from 'agent-platform/sdk';
import type { ManifestService } from '../services/manifest.ts';
import type { MintInput, TokensService } from '../services/tokens.ts';
import { tooLarge, type UploadsService } from '../services/uploads.ts';
import * as s from '../schemas.ts';

const tags = ['api', 'embed'];
/** hapi reads up to the limit plus room for the multipart envelope; the exact limit is checked on the file's bytes. */
const ENVELOPE_BYTES = 64 * 1024;

async function filePart(value: unknown): Promise<{ bytes: Buffer; filename: string }> {
  // A streamed part: hapi would decode a text/* part and drop types it does not know.
  const part = value as (Readable & { hapi?: { filename?: string } }) | undefined;
  if (part instanceof Readable && part.hapi) {
    const chunks: Buffer[] = [];
    for await (const chunk of part) chunks.push(chunk as Buffer);
    return { filename: part.hapi.filename || 'upload', bytes: Buffer.concat(chunks) };
  }
  throw badRequest('`file` must be a file part (with a filename) of a multipart/form-data body', 'VALIDATION_FAILED');
}

const readableErrors: Lifecycle.Method = (request, h) => {
  const response = request.response as Boom.Boom | { isBoom?: false };
  if (response.isBoom && !response.output.headers['access-control-allow-origin']) response.output.headers['access-control-allow-origin'] = '*';
  return h.continue;
};

export function publicRoutes(manifests: ManifestService, tokens: TokensService, uploads: UploadsService, uploadMaxBytes: number): ServerRoute[] {
  const overLimit: Lifecycle.FailAction = (_request, _h, err) => {
    if (Boom.isBoom(err as Error) && (err as Boom.Boom).output.statusCode === 413) throw tooLarge(uploadMaxBytes);
    throw err;
  };
  return [
    {
      method: 'GET', path: '/api/embed/manifest/{client_key}',
      options: {
        auth: false, tags, description: 'A client\'s public embed manifest, for an allowlisted Origin',
        notes: '400 without a well-formed Origin; 404 for an unknown key; 403 when embedding is disabled or the origin is not allowed; 429 with Retry-After over EMBED_MANIFEST_RATE_PER_SECOND. CORS preflight answered.',
        plugins: { platform: { tenant: 'none' }, embed: { cors: true } },
        validate: { params: s.manifestParams },
        // Documented, not validated per read: the manifest is built once per cache load from a validated configuration.
        response: { schema: s.manifest, sample: 0 },
        // Its errors are readable by any page (no credentials, nothing secret): the widget can say "not enabled for this website".
        ext: { onPreResponse: { method: readableErrors } },
      },
      handler: async (request: Request, h) => {
        const { manifest, origin } = await manifests.read((request.params as { client_key: string }).client_key, request.headers.origin, request);
        // Set here rather than by the origin policy's onPreResponse: the hot path of a page load.
        return h.response(manifest).header('access-control-allow-origin', origin).header('vary', 'Origin').header('cache-control', 'no-cache');
      },
    },
    {
      method: 'POST', path: '/api/embed/tokens',
      options: {
        auth: 'bearer', tags, description: 'Mint a short-lived embed token for one external user of a client',
        notes: 'The caller is the client\'s embed credential (its client_credentials token) or the super-admin, with an allowlisted Origin. 400 body or expires_in over EMBED_TOKEN_MAX_TTL_SECONDS; 401 no or bad token; 403 another caller, origin or disabled; 404 unknown client key; 429 with Retry-After.',
        plugins: { platform: { tenant: 'none' } },
        validate: { payload: s.mintInput }, response: { schema: s.minted },
      },
      handler: (request: Request) => tokens.mint(principalOf(request), request.headers.origin, request.payload as MintInput),
    },
    {
      method: 'POST', path: '/api/embed/sessions/{session_id}/uploads',
      options: {
        auth: 'bearer', tags, description: 'Attach a file to one conversation (multipart field `file`): private to that session',
        notes: 'The client has uploads enabled, the session is the caller\'s on that client, the Origin is allowlisted. 413 over EMBED_UPLOAD_MAX_BYTES; 415 for a type ingestion does not take.',
        plugins: { platform: { tenant: 'required', endUser: true } },
        payload: {
          maxBytes: uploadMaxBytes + ENVELOPE_BYTES, output: 'data', parse: true, multipart: { output: 'stream' },
          allow: ['multipart/form-data'], failAction: overLimit,
        },
        validate: { params: s.sessionParams, query: s.uploadQuery, payload: s.uploadPayload },
        response: { schema: s.uploadResult },
      },
      handler: async (request: Request, h) => {
        const file = await filePart((request.payload as { file: unknown }).file);
        const result = await uploads.upload({
          tenantId: tenantOf(request), principal: principalOf(request),
          selectedClient: (request.query as { selected_client?: string | number }).selected_client,
          sessionId: (request.params as { session_id: string }).session_id, originHeader: request.headers.origin, file,
        });
        return h.response(result).code(201);
      },
    },
  ];
}
