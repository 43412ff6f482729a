// The plugin's manifest options.
import Joi from 'joi';

export interface IntegrationsOptions {
  /** Let imported functions, spec downloads and token requests reach loopback and private addresses. */
  allowPrivateNetworks: boolean;
  /** Timeout of one call to an imported operation (and of a token request). */
  callTimeoutMs: number;
  /** Larger response bodies fail the call (RESPONSE_TOO_LARGE). */
  maxResponseBytes: number;
  /** Largest OpenAPI document (and remote $ref document) read, and largest import request. */
  maxSpecBytes: number;
  /** Most operations one document may have. */
  maxOperations: number;
  /** Most remote documents one import may read through $refs. */
  maxExternalDocuments: number;
  /** Timeout of reading a document (download and $ref resolution). */
  specTimeoutMs: number;
  /**
   * How long a call may reuse what an earlier call read (function, auth,
   * sealed credentials) when another process changed it; this process's own
   * changes are seen at once. 0: every call reads the database.
   */
  callCacheMs: number;
  /** Environment variables a `${VAR}` placeholder in an imported spec's auth value may read: comma-separated exact names or PREFIX_* patterns (env/policy.ts). */
  envAllowlist: string;
}

export const optionsSchema = Joi.object({
  allowPrivateNetworks: Joi.boolean().default(false)
    .description('Lets imported OpenAPI functions (and spec URLs) reach loopback and private addresses'),
  callTimeoutMs: Joi.number().integer().min(100).max(300_000).default(30_000)
    .description('Timeout of one imported-function call'),
  maxResponseBytes: Joi.number().integer().min(1024).max(256 * 1024 * 1024).default(10 * 1024 * 1024)
    .description('Largest response body an imported function reads'),
  maxSpecBytes: Joi.number().integer().min(1024).max(256 * 1024 * 1024).default(25 * 1024 * 1024),
  maxOperations: Joi.number().integer().min(1).max(50_000).default(5000),
  maxExternalDocuments: Joi.number().integer().min(0).max(1000).default(50),
  specTimeoutMs: Joi.number().integer().min(1000).max(600_000).default(60_000),
  callCacheMs: Joi.number().integer().min(0).max(60_000).default(2000),
  envAllowlist: Joi.string().allow('').default('INTEGRATION_*')
    .description('Environment variables a `${VAR}` placeholder in an imported spec\'s auth value may read: comma-separated exact names or `PREFIX_*` patterns. Never resolvable, even when listed: every variable of this table, `PLATFORM_*`, `DATABASE_URL`, any name ending in `_SECRET`, `_KEY`, `_TOKEN` or `_PASSWORD` (see [plugins/integrations](plugins/integrations/README.md#environment-placeholders)). Any tenant can have an allowed variable sent to a server of its choosing: list only values every tenant may use'),
}).default({});
