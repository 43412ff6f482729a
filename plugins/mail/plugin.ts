// Mail: e-mail that reaches a mailbox. Other plugins write messages to a
// tenant's outbox in their own transaction (the api's `send`); a job delivers
// each after the commit through the SMTP server of SMTP_URL, with retries and
// backoff, and a sweep finds what a lost job left. Operators list the outbox
// and retry held or dead messages (REST, CLI). Registration only.
import { coreOf, definePlugin } from 'agent-platform/sdk';
import { EVENT_TYPES } from './event-types.ts';
import { optionsSchema, secrets, type MailOptions } from './options.ts';
import { outboxRoutes } from './routes/outbox.ts';
import { createServices } from './services.ts';
import { DELIVER_TASK, deliverTask } from './tasks/mail.deliver.ts';
import { SWEEP_CRON, SWEEP_TASK, sweepTask } from './tasks/mail.sweep.ts';

export { cli } from './cli.ts';
export { optionsSchema, secrets };

export const plugin = definePlugin({
  name: 'mail',
  version: '0.1.0',
  dependencies: ['tenancy'],
  async register(server, options: MailOptions) {
    const core = coreOf(server);
    const { transport, outbox, delivery, api } = createServices(core, options);
    core.events.registerTypes(EVENT_TYPES);
    core.jobs.defineTask(DELIVER_TASK, deliverTask(delivery));
    core.jobs.defineLongTask(SWEEP_TASK, sweepTask(delivery), { retryLimit: 1 });
    await core.jobs.schedule(SWEEP_TASK, SWEEP_TASK, SWEEP_CRON);
    server.route(outboxRoutes(outbox, api.configured));
    if (transport) core.logger.info({ smtp: transport.endpoint }, 'mail: e-mail is sent through this SMTP server');
    else core.logger.info('mail: SMTP_URL is not set; e-mail is held in the outbox');
    server.ext('onPreStop', () => transport?.close());
    server.expose('api', api);
  },
});
