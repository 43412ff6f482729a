// Plugin options (manifest), with their defaults.
import Joi from 'joi';

export interface CitationsOptions {
  /** resolveReply verifies up to this many entries in the request; a larger block is created `pending` and verified by a job. */
  inlineVerifyLimit: number;
  /** Provenance records older than this are deleted daily (0 keeps them). Citations keep their verdict. */
  provenanceRetentionDays: number;
}

export const defaultOptions: CitationsOptions = { inlineVerifyLimit: 20, provenanceRetentionDays: 90 };

export const optionsSchema = Joi.object({
  inlineVerifyLimit: Joi.number().integer().min(0).max(200).default(defaultOptions.inlineVerifyLimit)
    .description('Citations of one reply verified in the request; more are created `pending` and verified by a job'),
  provenanceRetentionDays: Joi.number().integer().min(0).max(36_500).default(defaultOptions.provenanceRetentionDays)
    .description('Records of which chunks each context was shown are kept this long (0 keeps all)'),
});
