// What the public routes decide before a request's body is read: they run as
// the routes' onPreAuth extension, before authentication and the payload. A
// request without an Authorization header is anonymous (one with a header is
// authenticated next, and a bad token is 401 before any body byte is read):
// it spends a token of its address's rate limit here. An anonymous upload is
// also refused on its headers: it must declare a Content-Length (411) within
// the size limit (413 FILE_TOO_LARGE), for an existing tenant that takes
// anonymous uploads and whose quota has room for the declared bytes (413
// ANONYMOUS_QUOTA_EXCEEDED). Then every upload, signed-in or not, waits for a
// read slot (ReadSlots), given back once its response is sent.
import {
  badRequest, clientAddress, domainError, isValidTenantAlias, notFound,
  type CoreServices, type Lifecycle, type Request, type SharedRateLimiter,
} from 'agent-platform/sdk';
import { formsErrors } from '../errors.ts';
import type { FormsOptions } from '../options.ts';
import type { FilesService } from '../services/files.ts';
import type { ReadSlots, Release } from '../services/read-slots.ts';

/** hapi reads the file up to the limit plus room for the multipart envelope; the exact limit is checked on the bytes. */
export const ENVELOPE_BYTES = 64 * 1024;

/** A request that sends no Authorization header: an anonymous visitor of a public form. */
export const isAnonymous = (request: Request) => request.headers.authorization === undefined;

/** The tenant an anonymous request names with X-Tenant-ID: 400 when missing or malformed, 404 when unknown. */
export async function anonymousTenant(core: CoreServices, request: Request): Promise<string> {
  const tenantId = request.headers['x-tenant-id'];
  if (tenantId === undefined || tenantId === '') throw badRequest('A tenant is required: send X-Tenant-ID', 'TENANT_REQUIRED');
  if (!isValidTenantAlias(tenantId)) throw badRequest('Tenant alias is malformed: up to 64 lowercase characters [a-z0-9-], or a UUID', 'TENANT_INVALID');
  if (!(await core.tenants.exists(tenantId))) throw notFound(`Tenant not found: ${tenantId}`, 'TENANT_NOT_FOUND');
  return tenantId;
}

/** The body's declared length: required (411), and within the largest file plus its envelope (413). */
function declaredLength(request: Request, maxFileBytes: number): number {
  const header = request.headers['content-length'];
  if (header === undefined) throw formsErrors.lengthRequired();
  if (!/^\d{1,15}$/.test(String(header))) throw badRequest('Content-Length must be a number of bytes', 'VALIDATION_FAILED');
  const length = Number(header);
  if (length > maxFileBytes + ENVELOPE_BYTES) throw formsErrors.fileTooLarge(maxFileBytes);
  return length;
}

export function publicGate(core: CoreServices, options: FormsOptions, limiter: SharedRateLimiter, files: FilesService, slots: ReadSlots) {
  const held = new WeakMap<Request, Release>();
  const spendToken = (request: Request) => limiter.take(clientAddress(request, options.trustProxy));

  /** onPreAuth of a public route that takes a body: an anonymous caller spends its rate-limit token first. */
  const rateLimit: Lifecycle.Method = async (request, h) => {
    if (isAnonymous(request)) await spendToken(request);
    return h.continue;
  };

  /** onPreAuth of the upload route: the anonymous checks on the headers, then a read slot. */
  const admitUpload: Lifecycle.Method = async (request, h) => {
    const gone = new AbortController();
    request.raw.res.once('close', () => gone.abort(domainError(499, 'The client closed the connection', 'CLIENT_CLOSED')));
    if (isAnonymous(request)) {
      await spendToken(request);
      const declared = declaredLength(request, options.maxFileBytes);
      await files.admitAnonymous(await anonymousTenant(core, request), declared);
    }
    held.set(request, await slots.acquire(gone.signal));
    return h.continue;
  };

  /** onPostResponse of the upload route: its read slot goes to the next upload. */
  const releaseUpload: Lifecycle.Method = (request, h) => {
    held.get(request)?.();
    held.delete(request);
    return h.continue;
  };

  return { rateLimit, admitUpload, releaseUpload };
}

export type PublicGate = ReturnType<typeof publicGate>;
