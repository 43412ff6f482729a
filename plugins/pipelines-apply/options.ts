// The apply plugin's manifest options (joi: validated at boot).
import Joi from 'joi';

export const optionsSchema = Joi.object({
  /** APPLY_MAX_BODY_BYTES: largest apply request (JSON or YAML); 413 past it. */
  maxBodyBytes: Joi.number().integer().min(1024).max(64 * 1024 ** 2).default(1024 ** 2)
    .description('Largest declarative apply request (`POST /api/v1/apply`, `/apply/dry-run`; JSON or YAML); past it 413'),
  /** APPLY_MAX_DOCUMENTS: most documents in one request. */
  maxDocuments: Joi.number().integer().min(1).max(10_000).default(500)
    .description('Most documents in one apply request'),
});

export interface ApplyOptions {
  maxBodyBytes: number;
  maxDocuments: number;
}
