// Uploads for forms: the bytes are stored in the tenant's
// forms_files and the uploader gets a single-use token, bound to the tenant
// (row-level security) and to the uploader (a user's subject, or `anonymous`
// for a public form's visitor). A submission consumes the tokens its payload
// references, in its own transaction: a used, expired, unknown (another
// tenant's included) or another uploader's token is a 422 naming its field.
// Another plugin consumes tokens the same way through FormsApi.claimFiles.
import { domainError, hashSecret, randomToken, type CoreServices, type TenantTransaction } from 'agent-platform/sdk';
import type { AnonymousUploadGate, ClaimedFile, FileClaim, FormValidationError, SubmissionFile } from '../api.ts';
import { formsErrors } from '../errors.ts';
import type { FormsOptions } from '../options.ts';
import { filesStore } from '../store/files.ts';
import { useCasesStore } from '../store/use-cases.ts';

/** Who owns an upload: `user:<sub>`, or `anonymous` (a subject can never be mistaken for it). */
const ownerOf = (sub: string | null) => (sub === null ? 'anonymous' : `user:${sub}`);
const TOKEN = /^ft_[0-9a-f]{64}$/;
const MAX_NAME = 255;
/** File references are looked for this deep in a payload (deeper ones are not references). */
const MAX_DEPTH = 32;

/** The content type of the bytes: their signature, or text/plain for UTF-8 text without NULs. */
async function detectType(bytes: Buffer): Promise<string> {
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(bytes);
  if (detected) return detected.mime;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.includes('\u0000') ? 'application/octet-stream' : 'text/plain';
  } catch {
    return 'application/octet-stream';
  }
}

function cleanName(filename: string | undefined): string {
  const base = (filename ?? '').split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (base || 'file').slice(0, MAX_NAME);
}

interface Reference {
  path: string;
  holder: Record<string, unknown>;
}

/** Every file reference ({file_token, ...}) in a payload, with its path (`photos[0]`). */
function references(value: unknown, path: string, found: Reference[], depth = 0): Reference[] {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return found;
  if (Array.isArray(value)) {
    value.forEach((item, index) => references(item, `${path}[${index}]`, found, depth + 1));
    return found;
  }
  const object = value as Record<string, unknown>;
  if (Object.hasOwn(object, 'file_token')) {
    found.push({ path, holder: object });
    return found;
  }
  for (const [key, item] of Object.entries(object)) references(item, path ? `${path}.${key}` : key, found, depth + 1);
  return found;
}

export function createFilesService(core: CoreServices, options: FormsOptions) {
  /** Other plugins' public intakes that take file tokens (FormsApi.allowAnonymousUploads). */
  const publicIntakes: AnonymousUploadGate[] = [];

  /** An anonymous visitor may upload to a tenant with an active public use case, or a public intake of another plugin. */
  async function takesAnonymousUploads(trx: TenantTransaction) {
    if (await useCasesStore.hasActivePublic(trx)) return true;
    for (const gate of publicIntakes) if (await gate.allows(trx)) return true;
    return false;
  }

  /**
   * The one check of a token (a submission's reference or another plugin's
   * claim): it must be a token of this tenant (row-level security), unused
   * (not even earlier in the same request), unexpired and the uploader's.
   * Locks the file. Returns the file, or the error naming `field`.
   */
  function tokenChecker(trx: TenantTransaction, uploader: string | null) {
    const seen = new Set<string>();
    const now = core.clock.now();
    return async (token: unknown, field: string): Promise<ClaimedFile | FormValidationError> => {
      if (typeof token !== 'string' || !TOKEN.test(token)) return { path: field, message: 'is not a file token (POST /api/forms/files gives one)' };
      const file = await filesStore.byTokenForUpdate(trx, hashSecret(token));
      if (!file) return { path: field, message: 'is not a file token of this tenant' };
      if (file.consumed_at !== null || seen.has(file.id)) return { path: field, message: 'has already been used' };
      if (new Date(file.expires_at).getTime() <= now.getTime()) return { path: field, message: 'has expired' };
      if (file.uploaded_by !== ownerOf(uploader)) return { path: field, message: 'was uploaded by someone else' };
      seen.add(file.id);
      return { id: file.id, name: file.name, content_type: file.content_type, size: file.size };
    };
  }

  return {
    allowAnonymousUploads(gate: AnonymousUploadGate) {
      publicIntakes.push(gate);
    },

    /**
     * Whether an anonymous upload of `declaredBytes` (its Content-Length) may
     * be read at all: the tenant takes anonymous uploads (else 401) and its
     * unexpired unconsumed anonymous files leave room for it (else 413
     * ANONYMOUS_QUOTA_EXCEEDED). Decided on the headers, before the body is
     * read; `upload` checks again, atomically, with the real size.
     */
    async admitAnonymous(tenantId: string, declaredBytes: number) {
      await core.withTenant(tenantId, async (trx) => {
        if (!(await takesAnonymousUploads(trx))) throw formsErrors.authenticationRequired('Uploading without a public form');
        const used = await filesStore.anonymousBytes(trx, core.clock.now());
        if (used + declaredBytes > options.anonymousStorageBytes) throw formsErrors.anonymousQuotaExceeded(options.anonymousStorageBytes);
      });
    },

    /**
     * Stores an upload of `uploader` (a user's subject, or null for an
     * anonymous visitor). An anonymous file expires after the shorter of the
     * two lifetimes and counts against the tenant's anonymous quota: under a
     * per-tenant lock, the unconsumed anonymous files (expired ones are
     * pruned first when the new one would not fit) plus this one must fit.
     */
    async upload(tenantId: string, uploader: string | null, file: { filename?: string; bytes: Buffer }) {
      if (file.bytes.length > options.maxFileBytes) throw formsErrors.fileTooLarge(options.maxFileBytes);
      const contentType = await detectType(file.bytes);
      if (!options.allowedFileTypes.includes(contentType)) {
        throw domainError(415, `Files of type ${contentType} are not accepted (FORMS_ALLOWED_FILE_TYPES: ${options.allowedFileTypes.join(', ')})`, 'UNSUPPORTED_FILE_TYPE');
      }
      const token = `ft_${randomToken(32)}`;
      const ttlSeconds = uploader === null ? Math.min(options.fileTokenTtlSeconds, options.anonymousFileTtlSeconds) : options.fileTokenTtlSeconds;
      const stored = await core.withTenant(tenantId, async (trx) => {
        const now = core.clock.now();
        if (uploader === null) {
          if (!(await takesAnonymousUploads(trx))) throw formsErrors.authenticationRequired('Uploading without a public form');
          await filesStore.lockAnonymousQuota(trx, tenantId);
          const quota = options.anonymousStorageBytes;
          let used = await filesStore.anonymousBytes(trx);
          if (used + file.bytes.length > quota && (await filesStore.pruneExpired(trx, now)) > 0) used = await filesStore.anonymousBytes(trx);
          if (used + file.bytes.length > quota) throw formsErrors.anonymousQuotaExceeded(quota);
        }
        return filesStore.insert(trx, tenantId, {
          token_hash: hashSecret(token), uploaded_by: ownerOf(uploader), name: cleanName(file.filename), content_type: contentType, size: file.bytes.length,
          content: file.bytes, expires_at: new Date(now.getTime() + ttlSeconds * 1000),
        });
      });
      return { file_token: token, name: stored.name, content_type: stored.content_type, size: stored.size, expires_at: stored.expires_at };
    },

    /**
     * Checks every file reference of `data` for `submitter` and rewrites it to
     * the stored file ({file_id, name, content_type, size}: the server's
     * record, not the client's claims). Locks the files; `consume` then marks
     * them once the submission row exists. Throws 422 FILE_TOKEN_INVALID.
     */
    async claim(trx: TenantTransaction, data: Record<string, unknown>, submitter: string | null) {
      const errors: FormValidationError[] = [];
      const claimed: SubmissionFile[] = [];
      const check = tokenChecker(trx, submitter);
      for (const { path, holder } of references(data, '', [])) {
        const result = await check(holder.file_token, `${path}.file_token`);
        if ('path' in result) errors.push(result);
        else {
          claimed.push({ ...result, path });
          for (const key of Object.keys(holder)) delete holder[key];
          Object.assign(holder, { file_id: result.id, name: result.name, content_type: result.content_type, size: result.size });
        }
      }
      if (errors.length) throw formsErrors.filesInvalid(errors);
      return claimed;
    },

    /**
     * FormsApi.claimFiles: checks a list of tokens exactly as a submission's
     * references are checked (errors name `${field}[i]`) and gives the files
     * to the owner, in the caller's transaction: a rollback gives them back.
     */
    async claimFor(trx: TenantTransaction, claim: FileClaim): Promise<ClaimedFile[]> {
      const errors: FormValidationError[] = [];
      const claimed: ClaimedFile[] = [];
      const check = tokenChecker(trx, claim.uploader);
      const field = claim.field ?? 'files';
      for (const [index, token] of claim.tokens.entries()) {
        const result = await check(token, `${field}[${index}]`);
        if ('path' in result) errors.push(result);
        else claimed.push(result);
      }
      if (errors.length) throw formsErrors.filesInvalid(errors);
      if (claimed.length) await filesStore.consumeForOwner(trx, claimed.map((file) => file.id), claim.owner, core.clock.now());
      return claimed;
    },

    async consume(trx: TenantTransaction, files: SubmissionFile[], submissionId: string) {
      const now = core.clock.now();
      for (const file of files) await filesStore.consume(trx, file.id, submissionId, file.path, now);
    },
  };
}

export type FilesService = ReturnType<typeof createFilesService>;
