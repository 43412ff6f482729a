// CLI commands of the console plugin. The CLI acts as the operator (it holds
// the database): `console link` prints a one-time sign-in link for a user.
import type { CoreServices } from 'agent-platform/sdk';
import { defineCli } from 'agent-platform/sdk/cli';
import type { ConsoleOptions } from './options.ts';

const services = async (core: CoreServices, options: ConsoleOptions) => (await import('./services.ts')).createServices(core, options);

export const cli = defineCli(services, (command) => [
  command({
    name: 'console link',
    description: 'Print a one-time sign-in link to the console for a user (valid CONSOLE_LINK_TTL_SECONDS, 5 minutes by default)',
    options: {
      sub: { type: 'string', description: 'the user\'s sub', required: true },
      tenant: { type: 'string', description: 'limit the token to this tenant (default: every tenant of the user)' },
    },
    run: ({ links }, { options }) => links.create(options.sub, options.tenant),
  }),
]);
