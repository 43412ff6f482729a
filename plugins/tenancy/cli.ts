// CLI commands of the tenancy plugin. The CLI acts as the operator (it holds
// the database and the master key), so it has the super-admin's rights.
import type { CliCommand } from '../../core/cli/commands.ts';
import { UsageError } from '../../core/cli/commands.ts';
import type { Principal } from '../../core/auth/principal.ts';
import { createTenancyService } from './service.ts';

const operator: Principal = { kind: 'super_admin', sub: 'super-admin' };
const tenant = { type: 'string', description: 'tenant alias', required: true } as const;

function positiveInt(value: unknown, name: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new UsageError(`--${name} must be a positive integer`);
  return parsed;
}

function list(value: unknown): string[] {
  return typeof value === 'string' ? value.split(',').map((v) => v.trim()).filter(Boolean) : [];
}

export const cli: CliCommand[] = [
  {
    name: 'tenants create',
    description: 'Create a tenant',
    positionals: ['alias'],
    options: { 'display-name': { type: 'string', description: 'display name (defaults to the alias)' } },
    run: (core, { positionals, options }) =>
      createTenancyService(core).createTenant({ id: positionals[0], display_name: options['display-name'] as string | undefined }),
  },
  {
    name: 'tenants list',
    description: 'List tenants',
    run: (core) => createTenancyService(core).listTenants(0, 500),
  },
  {
    name: 'clients create',
    description: 'Create a client in a tenant',
    options: { tenant, name: { type: 'string', description: 'client name', required: true }, 'client-key': { type: 'string', description: 'public key (generated when absent)' } },
    run: (core, { options }) =>
      createTenancyService(core).createClient(options.tenant as string, { name: options.name as string, client_key: options['client-key'] as string | undefined }),
  },
  {
    name: 'clients list',
    description: 'List a tenant\'s clients',
    options: { tenant },
    run: (core, { options }) => createTenancyService(core).listClients(options.tenant as string, 0, 500),
  },
  {
    name: 'users create',
    description: 'Create a user (or service account) with memberships, or add memberships to one',
    options: {
      sub: { type: 'string', description: 'subject (user id)', required: true },
      'display-name': { type: 'string', description: 'display name', required: true },
      tenant: { type: 'string', description: 'tenant aliases, comma-separated', required: true },
      roles: { type: 'string', description: 'roles in those tenants, comma-separated (e.g. admin)' },
      'service-account': { type: 'boolean', description: 'create a client secret for the client_credentials grant' },
    },
    run: async (core, { options }) => {
      const { user } = await createTenancyService(core).upsertUser(operator, undefined, {
        sub: options.sub as string,
        display_name: options['display-name'] as string,
        organizations: list(options.tenant),
        roles: list(options.roles),
        service_account: Boolean(options['service-account']),
      });
      return user;
    },
  },
  {
    name: 'tokens issue',
    description: 'Issue an access token for a user (for one tenant with --tenant)',
    options: { sub: { type: 'string', description: 'subject', required: true }, tenant: { type: 'string', description: 'limit the token to this tenant' } },
    run: (core, { options }) =>
      createTenancyService(core).issueUserToken(operator, options.tenant as string | undefined, options.sub as string),
  },
  {
    name: 'api-keys create',
    description: 'Create an API key for a client (shown once)',
    options: {
      tenant,
      'client-id': { type: 'string', description: 'client id', required: true },
      name: { type: 'string', description: 'key name', required: true },
    },
    run: (core, { options }) =>
      createTenancyService(core).createApiKey(options.tenant as string, {
        name: options.name as string,
        client_id: positiveInt(options['client-id'], 'client-id'),
      }),
  },
];
