// The plugin's manifest options.
import Joi from 'joi';

export interface WorkflowsOptions {
  /** Let http_request reach loopback, private and link-local addresses (tests, trusted intranets). */
  allowPrivateNetworks: boolean;
  /** http_request's timeout when a call sets none. */
  httpTimeoutMs: number;
  /** http_request refuses a response body larger than this. */
  httpMaxResponseBytes: number;
  /** How many times a failing ACTION is tried before its step fails (1: no retry). */
  actionAttempts: number;
}

export const optionsSchema = Joi.object({
  allowPrivateNetworks: Joi.boolean().default(false)
    .description('Lets the `http_request` workflow function reach loopback and private addresses'),
  httpTimeoutMs: Joi.number().integer().min(100).max(120_000).default(10_000),
  httpMaxResponseBytes: Joi.number().integer().min(1024).max(64 * 1024 * 1024).default(1024 * 1024),
  actionAttempts: Joi.number().integer().min(1).max(10).default(1)
    .description('Attempts of a failing workflow ACTION (5xx, network) before the step fails'),
}).default({});
