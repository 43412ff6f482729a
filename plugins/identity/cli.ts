// CLI commands of the identity plugin: what an operator reads and runs by
// hand. The CLI has no server, so no other plugin's api: commands that need
// the lakehouse (dataset samples, discovery) are HTTP-only.
import type { CoreServices } from 'agent-platform/sdk';
import { defineCli } from 'agent-platform/sdk/cli';
import type { IdentityOptions } from './options.ts';

const tenant = { type: 'string', description: 'tenant alias', required: true } as const;
const serverOnly = (what: string) => () => {
  throw new Error(`${what} is only available in the server (use the HTTP API)`);
};

/** The plugin's services, imported when a command runs (the declarations load nothing else). */
const cliServices = async (core: CoreServices, options: IdentityOptions) => (await import('./services.ts')).createServices(core, options, serverOnly('the lakehouse api'), serverOnly('the tenancy api'));

export const cli = defineCli(cliServices, (command) => [
  command({
    name: 'identity policies',
    description: 'List a tenant\'s identity policies (current versions)',
    options: { tenant },
    run: ({ policies }, { options }) => policies.list(options.tenant, { limit: 500, offset: 0 }),
  }),
  command({
    name: 'identity versions',
    description: 'List an identity policy\'s immutable versions',
    options: { tenant, policy: { type: 'string', description: 'policy id', required: true } },
    run: ({ policies }, { options }) => policies.versions(options.tenant, options.policy),
  }),
  command({
    name: 'schemas sync-catalog',
    description: 'Copy the built-in schema libraries into a tenant\'s registry (idempotent)',
    options: { tenant },
    run: ({ registry }, { options }) => registry.syncCatalog(options.tenant, 'cli', undefined),
  }),
]);
