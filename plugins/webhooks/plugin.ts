// Webhooks: event-webhook definitions and the receiver that turns external
// POSTs into `webhook.received` events; the signed-resume endpoint that
// delivers signals to waiting workflow executions; the tenant signing secret.
// Registration only: the logic is in services/ (webhooks.ts, receiver.ts, resume.ts).
import { coreOf, definePlugin } from 'agent-platform/sdk';
import { EVENT_TYPES } from './event-types.ts';
import { optionsSchema, secrets, type WebhooksOptions } from './options.ts';
import { createServices } from './services.ts';
import { webhooksRoutes } from './routes/webhooks.ts';
import { PRUNE_CRON, PRUNE_TASK, pruneHandler } from './tasks/webhooks.prune.ts';

export { cli } from './cli.ts';
export { optionsSchema, secrets };

export const plugin = definePlugin({
  name: 'webhooks',
  version: '0.1.0',
  // Signals reach workflows through the workflows plugin's API; events go
  // through the core hub, so the events plugin is not a dependency.
  dependencies: ['tenancy', 'workflows'],
  async register(server, options: WebhooksOptions, deps) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const { webhooks: service, resume, receiver } = createServices(core, options, () => deps.workflows);
    server.route(webhooksRoutes(service, resume, receiver));
    core.jobs.defineLongTask(PRUNE_TASK, pruneHandler(core, () => core.clock.now().getTime()), { retryLimit: 1 });
    await core.jobs.schedule(PRUNE_TASK, PRUNE_TASK, PRUNE_CRON);
  },
});
