// Uploads for forms (spec 4.7): the bytes are stored in the tenant's
// forms_files and the uploader gets a single-use token, bound to the tenant
// (row-level security) and to the uploader (a user's subject, or `anonymous`
// for a public form's visitor). A submission consumes the tokens its payload
// references, in its own transaction: a used, expired, unknown (another
// tenant's included) or another uploader's token is a 422 naming its field.
import { fileTypeFromBuffer } from 'file-type';
import { domainError, hashSecret, randomToken, type CoreServices, type TenantTransaction } from 'agent-platform/sdk';
import type { FormValidationError, SubmissionFile } from '../api.ts';
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
  return {
    /** Stores an upload of `uploader` (a user's subject, or null for an anonymous visitor). */
    async upload(tenantId: string, uploader: string | null, file: { filename?: string; bytes: Buffer }) {
      if (file.bytes.length > options.maxFileBytes) {
        throw domainError(413, `The file is larger than FORMS_MAX_FILE_BYTES (${options.maxFileBytes} bytes)`, 'FILE_TOO_LARGE');
      }
      const contentType = await detectType(file.bytes);
      if (!options.allowedFileTypes.includes(contentType)) {
        throw domainError(415, `Files of type ${contentType} are not accepted (FORMS_ALLOWED_FILE_TYPES: ${options.allowedFileTypes.join(', ')})`, 'UNSUPPORTED_FILE_TYPE');
      }
      const token = `ft_${randomToken(32)}`;
      const stored = await core.withTenant(tenantId, async (trx) => {
        if (uploader === null && !(await useCasesStore.hasActivePublic(trx))) throw formsErrors.authenticationRequired('Uploading without a public form');
        return filesStore.insert(trx, tenantId, {
          token_hash: hashSecret(token), uploaded_by: ownerOf(uploader), name: cleanName(file.filename), content_type: contentType, size: file.bytes.length,
          content: file.bytes, expires_at: new Date(core.clock.now().getTime() + options.fileTokenTtlSeconds * 1000),
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
      const seen = new Set<string>();
      const now = core.clock.now();
      for (const { path, holder } of references(data, '', [])) {
        const field = `${path}.file_token`;
        const token = holder.file_token;
        if (typeof token !== 'string' || !TOKEN.test(token)) {
          errors.push({ path: field, message: 'is not a file token (POST /api/forms/files gives one)' });
          continue;
        }
        const file = await filesStore.byTokenForUpdate(trx, hashSecret(token));
        if (!file) errors.push({ path: field, message: 'is not a file token of this tenant' });
        else if (file.submission_id || seen.has(file.id)) errors.push({ path: field, message: 'has already been used' });
        else if (new Date(file.expires_at).getTime() <= now.getTime()) errors.push({ path: field, message: 'has expired' });
        else if (file.uploaded_by !== ownerOf(submitter)) errors.push({ path: field, message: 'was uploaded by someone else' });
        else {
          seen.add(file.id);
          claimed.push({ id: file.id, path, name: file.name, content_type: file.content_type, size: file.size });
          for (const key of Object.keys(holder)) delete holder[key];
          Object.assign(holder, { file_id: file.id, name: file.name, content_type: file.content_type, size: file.size });
        }
      }
      if (errors.length) throw formsErrors.filesInvalid(errors);
      return claimed;
    },

    async consume(trx: TenantTransaction, files: SubmissionFile[], submissionId: string) {
      const now = core.clock.now();
      for (const file of files) await filesStore.consume(trx, file.id, submissionId, file.path, now);
    },
  };
}

export type FilesService = ReturnType<typeof createFilesService>;
