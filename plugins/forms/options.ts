// The forms plugin's manifest options (manifests/default.yaml gives them from FORMS_* settings).
import { Joi } from 'agent-platform/sdk';

export interface FormsOptions {
  /** Lifetime of an upload's file token, seconds (FORMS_FILE_TOKEN_TTL_SECONDS). */
  fileTokenTtlSeconds: number;
  /** Largest uploaded file, bytes (FORMS_MAX_FILE_BYTES): 413 past it. */
  maxFileBytes: number;
  /** Content types an upload may have, detected from its bytes (FORMS_ALLOWED_FILE_TYPES, comma-separated): 415 otherwise. */
  allowedFileTypes: string[];
  /** Anonymous submissions and uploads per client address per minute (FORMS_PUBLIC_RATE_LIMIT): 429 past it. */
  publicRatePerMinute: number;
  /** Take the client address from the first X-Forwarded-For entry (FORMS_TRUST_PROXY): only behind a proxy that sets it. */
  trustProxy: boolean;
  /** Bytes of unconsumed anonymous uploads a tenant may hold (FORMS_ANONYMOUS_STORAGE_BYTES): 413 ANONYMOUS_QUOTA_EXCEEDED past it. */
  anonymousStorageBytes: number;
  /** Lifetime of an unconsumed anonymous upload, seconds (FORMS_ANONYMOUS_FILE_TTL_SECONDS; never longer than fileTokenTtlSeconds). */
  anonymousFileTtlSeconds: number;
  /** Upload bodies read at once by this process (FORMS_MAX_CONCURRENT_UPLOADS); later ones wait with their body unread. */
  maxConcurrentUploads: number;
}

const types = Joi.alternatives(
  Joi.array().items(Joi.string().pattern(/^[a-z0-9.+-]+\/[a-z0-9.+-]+$/)).min(1),
  Joi.string().pattern(/^\s*[a-z0-9.+-]+\/[a-z0-9.+-]+\s*(,\s*[a-z0-9.+-]+\/[a-z0-9.+-]+\s*)*$/)
    .custom((value: string) => value.split(',').map((type) => type.trim())),
);

export const DEFAULT_FILE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain'];

export const optionsSchema = Joi.object({
  fileTokenTtlSeconds: Joi.number().integer().min(1).max(30 * 86_400).default(86_400)
    .description('Lifetime of a form upload\'s single-use file token'),
  maxFileBytes: Joi.number().integer().min(1).max(512 * 1024 * 1024).default(10 * 1024 * 1024)
    .description('Largest form upload; past it 413 `FILE_TOO_LARGE`'),
  allowedFileTypes: types.default(DEFAULT_FILE_TYPES)
    .description('Content types a form upload may have, detected from its bytes; others 415 `UNSUPPORTED_FILE_TYPE`'),
  publicRatePerMinute: Joi.number().integer().min(1).max(100_000).default(30)
    .description('Anonymous form submissions and uploads per client address per minute, across processes; past it 429 `RATE_LIMITED` with `Retry-After`'),
  trustProxy: Joi.boolean().default(false)
    .description('Take a form caller\'s address from the first `X-Forwarded-For` entry (only behind a proxy that sets it)'),
  anonymousStorageBytes: Joi.number().integer().min(0).default(1024 * 1024 * 1024)
    .description('Bytes of unconsumed anonymous form uploads one tenant may hold; past it 413 `ANONYMOUS_QUOTA_EXCEEDED`, decided on `Content-Length` before the body is read and again when the file is stored'),
  anonymousFileTtlSeconds: Joi.number().integer().min(1).max(30 * 86_400).default(3600)
    .description('An unconsumed anonymous form upload expires after this (at most `FORMS_FILE_TOKEN_TTL_SECONDS`); the hourly clean-up deletes it'),
  maxConcurrentUploads: Joi.number().integer().min(1).max(1000).default(4)
    .description('Form upload bodies one process reads at once (each is held whole until stored); the others wait with their body unread'),
}).default({});
