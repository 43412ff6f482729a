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
}

export const optionsSchema = Joi.object({
  allowPrivateNetworks: Joi.boolean().default(false),
  callTimeoutMs: Joi.number().integer().min(100).max(300_000).default(30_000),
  maxResponseBytes: Joi.number().integer().min(1024).max(256 * 1024 * 1024).default(10 * 1024 * 1024),
  maxSpecBytes: Joi.number().integer().min(1024).max(256 * 1024 * 1024).default(25 * 1024 * 1024),
  maxOperations: Joi.number().integer().min(1).max(50_000).default(5000),
  maxExternalDocuments: Joi.number().integer().min(0).max(1000).default(50),
  specTimeoutMs: Joi.number().integer().min(1000).max(600_000).default(60_000),
  callCacheMs: Joi.number().integer().min(0).max(60_000).default(2000),
}).default({});
