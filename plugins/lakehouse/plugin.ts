// Lakehouse: PostgreSQL as the lake. Datasets (<namespace>.<layer>.<table>)
// are system-versioned tables under forced row-level security; every write is
// a snapshot. Registration only: routes, GraphQL, event types, the readiness
// check; exposes the API the sources, transform and ontology plugins write
// and read through.
import { addReadinessCheck, coreOf, definePlugin } from 'agent-platform/sdk';
import { EVENT_TYPES } from './event-types.ts';
import { typeDefs, resolvers } from './graphql.ts';
import { optionsSchema, type LakehouseOptions } from './options.ts';
import { lakehouseCheck } from './store/readiness.ts';
import { lakehouseRoutes } from './routes/datasets.ts';
import { createServices } from './services.ts';
import './store/tables.ts';

export { cli } from './cli.ts';
export { optionsSchema };

export const plugin = definePlugin({
  name: 'lakehouse',
  version: '0.1.0',
  dependencies: ['tenancy'],
  register(server, options: LakehouseOptions) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const { datasets, lineage, api } = createServices(core, options);
    server.route(lakehouseRoutes(datasets, lineage));
    core.graphql.extend({ typeDefs, resolvers: resolvers(datasets) });
    addReadinessCheck(server, 'lakehouse', lakehouseCheck(core));
    server.expose('api', api);
  },
});
