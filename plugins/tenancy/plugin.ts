// Tenancy: tenants, clients, API keys, users and service accounts.
// Registration only: its routes, GraphQL types, the API-key lookup core auth
// uses, a platform function, and its api (service accounts, which embed
// credentials are). The CLI builds the same services from services.ts.
import { coreOf, definePlugin } from 'agent-platform/sdk';
import { createServices } from './services.ts';
import { tenancyRoutes } from './routes/tenancy.ts';
import { typeDefs, resolvers } from './graphql.ts';
import './store/tables.ts';

export { cli } from './cli.ts';

export const plugin = definePlugin({
  name: 'tenancy',
  version: '0.1.0',
  register(server) {
    const core = coreOf(server);
    const { tenancy: service, api } = createServices(core);
    core.auth.setApiKeyResolver((key) => service.resolveApiKey(key));
    server.route(tenancyRoutes(service));
    core.graphql.extend({ typeDefs, resolvers: resolvers(service) });
    core.functions.register('list_clients', {
      description: 'List the clients (chat surfaces, integrations) of the current tenant.',
      parameters: {
        properties: {
          skip: { type: 'integer', minimum: 0, default: 0 },
          limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
        },
        additionalProperties: false,
      },
      // Members read the tenant's clients (GET /api/admin/clients): any member may call it.
      roles: [],
      handler: (args, context) => service.listClients(context.tenantId, args.skip, args.limit),
    });
    server.expose('api', api);
  },
});
