// Tenancy: tenants, clients, API keys, users and service accounts, and the
// tenants' public origins. Registration only: its routes, GraphQL types, the
// API-key lookup core auth uses, the CORS policy of public routes, a platform
// function, and its api (service accounts, which embed credentials are). The
// CLI builds the same services from services.ts.
import { coreOf, definePlugin } from 'agent-platform/sdk';
import { registerPublicCors } from './cors/public-cors.ts';
import { optionsSchema, type TenancyOptions } from './options.ts';
import { createServices } from './services.ts';
import { publicOriginRoutes } from './routes/public-origins.ts';
import { tenancyRoutes } from './routes/tenancy.ts';
import { typeDefs, resolvers } from './graphql.ts';
import './store/tables.ts';

export { cli } from './cli.ts';
export { optionsSchema };

export const plugin = definePlugin({
  name: 'tenancy',
  version: '0.1.0',
  register(server, options: TenancyOptions) {
    const core = coreOf(server);
    const { tenancy: service, publicOrigins, originDirectory, api } = createServices(core, options);
    core.auth.setApiKeyResolver((key) => service.resolveApiKey(key));
    server.route([...tenancyRoutes(service), ...publicOriginRoutes(publicOrigins)]);
    registerPublicCors(server, originDirectory, (error) => core.logger.warn({ err: error }, 'public origins could not be read: CORS refused'));
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
