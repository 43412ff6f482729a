// The identity plugin's manifest options (joi: validated at boot, for the CLI too).
import { Joi } from 'agent-platform/sdk';

export const optionsSchema = Joi.object({
  /** IDENTITY_MAX_BLOCK_SIZE: a policy's default max_block_size (records in a larger block are not compared by fuzzy rules). */
  maxBlockSize: Joi.number().integer().min(2).max(100_000).default(1000)
    .description('An identity policy\'s default `max_block_size`: records in a larger block (a blocking key value shared by more records) are not compared by fuzzy rules, and the block is reported in `skipped_blocks`'),
  /** IDENTITY_DRY_RUN_MAX_RECORDS: most records a dry run takes (given in the body, or sampled from a dataset). */
  dryRunMaxRecords: Joi.number().integer().min(10).max(1_000_000).default(10_000)
    .description('Most records an identity-policy dry run takes (given in the body, or sampled from a dataset); more in the body is 400 `IDENTITY_DRY_RUN_TOO_LARGE`'),
  /** IDENTITY_MATCH_TIMEOUT_SECONDS: statement timeout of one matching (dry runs and the api's match); past it 422 IDENTITY_MATCH_TIMEOUT. */
  matchTimeoutSeconds: Joi.number().integer().min(1).max(86_400).default(600)
    .description('Statement timeout of one identity matching: the api\'s `match` (a job), past it 422 `IDENTITY_MATCH_TIMEOUT`; a dry run (a request) gets the smaller of this and `TENANT_SQL_INTERACTIVE_TIMEOUT_SECONDS`, past it 422 `SQL_TIMEOUT`'),
});

export interface IdentityOptions {
  maxBlockSize: number;
  dryRunMaxRecords: number;
  matchTimeoutSeconds: number;
}
