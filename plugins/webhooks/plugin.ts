// Webhooks: event-webhook definitions and the receiver that turns external
// POSTs into `webhook.received` events; the signed-resume endpoint that
// delivers signals to waiting workflow executions; the tenant signing secret.
// Registration only: the logic is in service.ts, receiver.ts and resume.ts.
import type { Server } from '@hapi/hapi';
import Joi from 'joi';
import { coreOf } from '../../core/plugin-contract.ts';
import { EVENT_TYPES } from './event-types.ts';
import { createWebhooksService, type WebhooksService } from './service.ts';
import { createResumeService } from './resume.ts';
import { createReceiverService } from './receiver.ts';
import { webhooksRoutes } from './routes.ts';
import { PRUNE_CRON, PRUNE_TASK, pruneHandler } from './tasks/webhooks.prune.ts';

export { cli } from './cli.ts';

export const optionsSchema = Joi.object({
  /** Spec 8: 60 signed-resume requests per minute per tenant. */
  rateLimitPerMinute: Joi.number().integer().min(1).default(60),
  /** Signed resume: an accepted signature is refused again for the 5-minute freshness window plus this many hours. */
  signatureRetentionHours: Joi.number().integer().min(24).default(24),
});

export interface WebhooksOptions {
  rateLimitPerMinute: number;
  signatureRetentionHours: number;
}

declare module '@hapi/hapi' {
  interface PluginProperties {
    webhooks: { service: WebhooksService };
  }
}

export const plugin = {
  name: 'webhooks',
  version: '0.1.0',
  // Signals reach workflows through the workflows plugin's API; events go
  // through the core hub, so the events plugin is not a dependency.
  dependencies: ['tenancy', 'workflows'],
  async register(server: Server, options: WebhooksOptions) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const sharedSecret = core.config.env.WEBHOOK_SECRET || undefined;
    const service = createWebhooksService(core);
    // Signed resume takes no shared secret: only each tenant's own signs for it.
    const resume = createResumeService(core, {
      signatureRetentionHours: options.signatureRetentionHours ?? 24,
      rateLimitPerMinute: options.rateLimitPerMinute ?? 60,
      workflows: () => server.plugins.workflows.api,
    });
    const receiver = createReceiverService(core, { sharedSecret });
    server.route(webhooksRoutes(service, resume, receiver));
    core.jobs.defineLongTask(PRUNE_TASK, pruneHandler(core), { retryLimit: 1 });
    await core.jobs.schedule(PRUNE_TASK, PRUNE_TASK, PRUNE_CRON);
    server.expose('service', service);
  },
};
