// The routes a form's users call: the renderer's form, uploads, submissions.
// A public use case takes anonymous callers naming the tenant with
// X-Tenant-ID, rate limited per client address before its body is read
// (public-gate.ts); an authenticated one takes a bearer token of a user of
// the tenant (any role). A bearer token is optional on these routes, but one
// that is sent must be valid.
import Boom from '@hapi/boom';
import { Readable } from 'node:stream';
import {
  badRequest, principalOf, tenantOf,
  type CoreServices, type Lifecycle, type Request, type ServerRoute,
} from 'agent-platform/sdk';
import { formsErrors } from '../errors.ts';
import type { FormsOptions } from '../options.ts';
import type { FilesService } from '../services/files.ts';
import type { SubmissionsService, Submitter } from '../services/submissions.ts';
import * as s from '../schemas.ts';
import { anonymousTenant, ENVELOPE_BYTES, type PublicGate } from './public-gate.ts';
import type {} from '../../tenancy/api.ts';

const tags = ['api', 'forms'];
const optionalBearer = { strategy: 'bearer', mode: 'optional' } as const;
const platform = { tenant: 'required' } as const;
/** Called from the pages of the tenant's public origins: CORS for them (tenancy README). */
const tenancy = { publicCors: 'header' } as const;
const CORS = 'CORS for the public origins of the X-Tenant-ID tenant (PUT /api/admin/public-origins); a browser\'s cross-origin request from another origin is 403 ORIGIN_NOT_ALLOWED before its body is read.';

interface Caller {
  tenantId: string;
  submitter: Submitter;
}

export function publicRoutes(core: CoreServices, options: FormsOptions, gate: PublicGate, submissions: SubmissionsService, files: FilesService): ServerRoute[] {
  /**
   * The tenant and who calls: a signed-in caller as the core checked it (a
   * member of the tenant), else an anonymous one naming an existing tenant
   * with X-Tenant-ID (its rate-limit token was spent in the route's onPreAuth).
   */
  async function callerOf(request: Request): Promise<Caller> {
    if (request.auth.isAuthenticated) return { tenantId: tenantOf(request), submitter: { sub: principalOf(request).sub } };
    return { tenantId: await anonymousTenant(core, request), submitter: { sub: null } };
  }

  /** hapi's 413, on the declared length or counted as the body streams (then wrapped in its 400 of a broken multipart body), is FILE_TOO_LARGE. */
  const tooLarge: Lifecycle.FailAction = (_request, _h, err) => {
    const status = (error: unknown) => (Boom.isBoom(error as Error) ? (error as Boom.Boom).output.statusCode : undefined);
    if (status(err) === 413 || (status(err) === 400 && status((err as Boom.Boom).data) === 413)) throw formsErrors.fileTooLarge(options.maxFileBytes);
    throw err;
  };

  return [
    {
      method: 'GET', path: '/api/forms/use-cases/{id}',
      options: {
        auth: optionalBearer, tags, plugins: { platform, tenancy },
        description: 'What a renderer needs of a use case: its pinned form version\'s schema and version number',
        notes: `Public use case: anyone, with X-Tenant-ID. Authenticated: a user of the tenant (401 AUTHENTICATION_REQUIRED otherwise). 404 for an unknown or inactive use case. ${CORS}`,
        validate: { params: s.idParams }, response: { schema: s.publicUseCase },
      },
      handler: async (request) => {
        const caller = await callerOf(request);
        return submissions.form(caller.tenantId, request.params.id as string, caller.submitter);
      },
    },
    {
      method: 'POST', path: '/api/forms/use-cases/{id}/submissions',
      options: {
        auth: optionalBearer, tags, plugins: { platform, tenancy }, ext: { onPreAuth: { method: gate.rateLimit } },
        description: 'Submit a form: validated against the pinned form version (Form.io), stored immutably and hydrated into the target object, all or nothing',
        notes: [
          '201 {id, form_version, hydration {target_model, object_id, object}}.',
          '422 FORM_VALIDATION_FAILED, FILE_TOKEN_INVALID, TRANSFORM_FAILED, HYDRATION_FAILED, each with errors [{path, message}]; nothing is kept.',
          'Anonymous (public use cases, X-Tenant-ID): 429 RATE_LIMITED with Retry-After past FORMS_PUBLIC_RATE_LIMIT per minute and address.',
          CORS,
        ].join(' '),
        validate: { params: s.idParams, payload: s.submissionBody }, response: { schema: s.submitted },
      },
      handler: async (request, h) => {
        const caller = await callerOf(request);
        return h.response(await submissions.submit(caller.tenantId, request.params.id as string, caller.submitter, request.payload as never)).code(201);
      },
    },
    {
      method: 'POST', path: '/api/forms/files',
      options: {
        auth: optionalBearer, tags, plugins: { platform, tenancy },
        ext: { onPreAuth: { method: gate.admitUpload }, onPostResponse: { method: gate.releaseUpload } },
        description: 'Upload a file for a form (multipart field `file`): a single-use file_token for the submission\'s payload',
        notes: [
          'The token expires after FORMS_FILE_TOKEN_TTL_SECONDS and is bound to the tenant and the uploader (a user, or anonymous for a tenant with an active public use case).',
          'The type is detected from the bytes: 415 UNSUPPORTED_FILE_TYPE outside FORMS_ALLOWED_FILE_TYPES; 413 FILE_TOO_LARGE past FORMS_MAX_FILE_BYTES.',
          'Anonymous uploads are decided on their headers before the body is read: 429 RATE_LIMITED (the public rate limit), 411 LENGTH_REQUIRED without Content-Length, 413 FILE_TOO_LARGE, 413 ANONYMOUS_QUOTA_EXCEEDED past FORMS_ANONYMOUS_STORAGE_BYTES of unused anonymous files in the tenant; they expire after FORMS_ANONYMOUS_FILE_TTL_SECONDS.',
          CORS,
        ].join(' '),
        payload: {
          maxBytes: options.maxFileBytes + ENVELOPE_BYTES, output: 'data', parse: true, multipart: { output: 'stream' },
          allow: ['multipart/form-data'], failAction: tooLarge,
        },
        validate: { payload: s.uploadPayload }, response: { schema: s.uploaded },
      },
      handler: async (request, h) => {
        const caller = await callerOf(request);
        const part = (request.payload as { file?: unknown }).file as (Readable & { hapi?: { filename?: string } }) | undefined;
        if (!(part instanceof Readable) || !part.hapi) throw badRequest('`file` must be a file part of a multipart/form-data body', 'VALIDATION_FAILED');
        const chunks: Buffer[] = [];
        for await (const chunk of part) chunks.push(chunk as Buffer);
        const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        const uploaded = await files.upload(caller.tenantId, caller.submitter.sub, { filename: part.hapi.filename, bytes });
        return h.response(uploaded).code(201);
      },
    },
  ];
}
