// CLI commands of the mail plugin: the operator lists a tenant's outbox and
// puts a held or dead message back in line (the server's workers deliver it).
import type { CoreServices } from 'agent-platform/sdk';
import { defineCli, UsageError } from 'agent-platform/sdk/cli';
import type { MailOptions } from './options.ts';
import { STATES } from './outbox/states.ts';

const tenant = { type: 'string', description: 'tenant alias', required: true } as const;

/** The plugin's services, imported when a command runs (the declarations load nothing else). */
const services = async (core: CoreServices, options: MailOptions) => (await import('./services.ts')).createServices(core, options);

export const cli = defineCli(services, (command) => [
  command({
    name: 'outbox list',
    description: 'List a tenant\'s outgoing e-mail, newest first',
    options: {
      tenant,
      state: { type: 'string', description: STATES.join(' | ') },
      limit: { type: 'string', description: 'at most this many (1-500, default 50)' },
    },
    run: async ({ outbox }, { options }) => {
      if (options.state !== undefined && !(STATES as readonly string[]).includes(options.state)) throw new UsageError(`--state must be one of ${STATES.join(', ')}`);
      const limit = options.limit === undefined ? 50 : Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError('--limit must be an integer from 1 to 500');
      const page = await outbox.list(options.tenant, { state: options.state as never }, 0, limit);
      return {
        ...page,
        items: page.items.map(({ id, recipient, subject, state, attempts, last_error, next_attempt_at, origin, origin_id }) =>
          ({ id, recipient, subject, state, attempts, last_error, next_attempt_at, origin, origin_id })),
      };
    },
  }),
  command({
    name: 'outbox retry',
    description: 'Send a held or dead e-mail again (the server delivers it)',
    positionals: ['id'],
    options: { tenant },
    run: ({ outbox }, { positionals, options }) => {
      const id = Number(positionals[0]);
      if (!Number.isSafeInteger(id) || id < 1) throw new UsageError('the message id must be a positive integer');
      return outbox.retry(options.tenant, id);
    },
  }),
]);
