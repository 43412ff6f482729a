// Integrations: OpenAPI descriptions imported as functions that agents and
// workflow ACTION steps call through the core registry (a FunctionProvider),
// with credentials resolved per call (session, client, spec default).
// Registration only: the provider, the announce task, routes and GraphQL.
// Uses the chat plugin's API, when it is loaded, to tell who owns a session.
import { coreOf, definePlugin } from 'agent-platform/sdk';
import { ANNOUNCE_TASK } from './announce/events.ts';
import { typeDefs, resolvers } from './graphql.ts';
import { optionsSchema, type IntegrationsOptions } from './options.ts';
import { credentialRoutes } from './routes/credentials.ts';
import { functionRoutes } from './routes/functions.ts';
import { specRoutes } from './routes/specs.ts';
import { createServices } from './services.ts';
import { announceTask } from './tasks/integrations.announce.ts';
import './store/tables.ts';

export { cli } from './cli.ts';
export { optionsSchema };

export const plugin = definePlugin({
  name: 'integrations',
  version: '0.1.0',
  dependencies: ['tenancy'],
  optionalDependencies: ['chat'],
  register(server, options: IntegrationsOptions, deps) {
    const core = coreOf(server);
    const { provider, imports, sync, catalog, credentials } = createServices(core, options, () => deps.chat);
    core.functions.addProvider(provider);

    core.jobs.defineTask(ANNOUNCE_TASK, announceTask(core));
    server.route([
      ...specRoutes(imports, sync, catalog, options.maxSpecBytes),
      ...functionRoutes(catalog),
      ...credentialRoutes(credentials),
    ]);
    core.graphql.extend({ typeDefs, resolvers: resolvers(catalog, core.functions) });
  },
});
