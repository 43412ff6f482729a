// The approvals plugin's manifest options (validated at boot, for the CLI too).
import { Joi } from 'agent-platform/sdk';

export interface ApprovalsOptions {
  /** The platform's public base URL, for decision links (e.g. https://agents.example.com). */
  publicUrl: string;
  /** Requests per minute one client address may make to the decision link pages. */
  linkRateLimitPerMinute: number;
  /** How often a process with approvalResolved subscribers looks for settled cases (ms). */
  subscriptionPollMs: number;
}

export const optionsSchema = Joi.object({
  publicUrl: Joi.string().uri({ scheme: ['http', 'https'] }).default('http://127.0.0.1:8080')
    .description('The platform\'s public base URL, used in one-time approval decision links'),
  linkRateLimitPerMinute: Joi.number().integer().min(1).max(100_000).default(30)
    .description('Requests one client address may make to the public decision link pages per minute (across processes); past it 429 `RATE_LIMITED` with `Retry-After`'),
  subscriptionPollMs: Joi.number().integer().min(10).max(60_000).default(1000)
    .description('How often a process with `approvalResolved` GraphQL subscribers looks for settled cases'),
}).default({});
