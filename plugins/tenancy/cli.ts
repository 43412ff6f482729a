// CLI commands of the tenancy plugin. The CLI acts as the operator (it holds
// the database and the master key), so it has the super-admin's rights.
import type { CoreServices, Principal } from 'agent-platform/sdk';
import { defineCli, UsageError } from 'agent-platform/sdk/cli';
import type { TenancyOptions } from './options.ts';

const operator: Principal = { kind: 'super_admin', sub: 'super-admin' };
const tenant = { type: 'string', description: 'tenant alias', required: true } as const;

function positiveInt(value: string, name: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new UsageError(`--${name} must be a positive integer`);
  return parsed;
}

function list(value: string | undefined): string[] {
  return typeof value === 'string' ? value.split(',').map((v) => v.trim()).filter(Boolean) : [];
}

/** The plugin's services, imported when a command runs (the declarations load nothing else). */
const services = async (core: CoreServices, options: TenancyOptions) => (await import('./services.ts')).createServices(core, options);

export const cli = defineCli(services, (command) => [
  command({
    name: 'tenants create',
    description: 'Create a tenant (with its default client)',
    positionals: ['alias'],
    options: { 'display-name': { type: 'string', description: 'display name (defaults to the alias)' } },
    run: ({ tenancy }, { positionals, options }) => tenancy.createTenant({ id: positionals[0], display_name: options['display-name'] }),
  }),
  command({
    name: 'tenants list',
    description: 'List tenants',
    run: ({ tenancy }) => tenancy.listTenants(0, 500),
  }),
  command({
    name: 'clients create',
    description: 'Create a client in a tenant',
    options: { tenant, name: { type: 'string', description: 'client name', required: true }, 'client-key': { type: 'string', description: 'public key (generated when absent)' } },
    run: ({ tenancy }, { options }) => tenancy.createClient(options.tenant, { name: options.name, client_key: options['client-key'] }),
  }),
  command({
    name: 'clients list',
    description: 'List a tenant\'s clients (with their keys; every tenant starts with one named "default")',
    options: { tenant },
    run: ({ tenancy }, { options }) => tenancy.listClients(options.tenant, 0, 500),
  }),
  command({
    name: 'clients rename',
    description: 'Rename a client',
    options: { tenant, 'client-id': { type: 'string', description: 'client id', required: true }, name: { type: 'string', description: 'new name', required: true } },
    run: async ({ tenancy }, { options }) => {
      const { renameClient } = await import('./schemas.ts');
      const { value, error } = renameClient.validate({ name: options.name });
      if (error) throw new UsageError(`--${error.message.replaceAll('"', '')}`);
      return tenancy.renameClient(options.tenant, positiveInt(options['client-id'], 'client-id'), value.name);
    },
  }),
  command({
    name: 'public-origins get',
    description: 'Show a tenant\'s public origins (web origins whose pages may call its public routes)',
    options: { tenant },
    run: ({ publicOrigins }, { options }) => publicOrigins.get(options.tenant),
  }),
  command({
    name: 'public-origins set',
    description: 'Replace a tenant\'s public origins (--origin repeated; --none clears the list)',
    options: {
      tenant,
      origin: { type: 'string', multiple: true, description: 'an exact origin, scheme://host[:port] (repeatable; replaces the list)' },
      none: { type: 'boolean', description: 'clear the list' },
    },
    run: ({ publicOrigins }, { options }) => {
      if (options.none && options.origin) throw new UsageError('--origin and --none: give one');
      if (!options.none && !options.origin) throw new UsageError('--origin is required (repeat it for each origin; --none clears the list)');
      return publicOrigins.set(options.tenant, options.origin ?? []);
    },
  }),
  command({
    name: 'users create',
    description: 'Create a user (or service account) with memberships, or add memberships to one',
    options: {
      sub: { type: 'string', description: 'subject (user id)', required: true },
      'display-name': { type: 'string', description: 'display name', required: true },
      tenant: { type: 'string', description: 'tenant aliases, comma-separated', required: true },
      roles: { type: 'string', description: 'roles in those tenants, comma-separated (e.g. admin)' },
      'service-account': { type: 'boolean', description: 'create a client secret for the client_credentials grant' },
    },
    run: async ({ tenancy }, { options }) => {
      const { user } = await tenancy.upsertUser(operator, undefined, {
        sub: options.sub,
        display_name: options['display-name'],
        organizations: list(options.tenant),
        roles: list(options.roles),
        service_account: Boolean(options['service-account']),
      });
      return user;
    },
  }),
  command({
    name: 'tokens issue',
    description: 'Issue an access token for a user (for one tenant with --tenant)',
    options: { sub: { type: 'string', description: 'subject', required: true }, tenant: { type: 'string', description: 'limit the token to this tenant' } },
    run: ({ tenancy }, { options }) => tenancy.issueUserToken(operator, options.tenant, options.sub),
  }),
  command({
    name: 'api-keys create',
    description: 'Create an API key for a client (shown once)',
    options: {
      tenant,
      'client-id': { type: 'string', description: 'client id', required: true },
      name: { type: 'string', description: 'key name', required: true },
    },
    run: ({ tenancy }, { options }) =>
      tenancy.createApiKey(options.tenant, { name: options.name, client_id: positiveInt(options['client-id'], 'client-id') }),
  }),
]);
