// The ontology: entity types with immutable versions, backing datasets that
// map lake datasets onto them, fingerprinted syncs that keep the entities
// current, the authorization policy, GraphQL over the entities, and the apply
// kinds EntityType and BackingDataset (live_ontology preflight). Registration only.
import { coreOf, definePlugin } from 'agent-platform/sdk';
import type {} from '../pipelines-apply/api.ts';
import { EVENT_TYPES } from './event-types.ts';
import { resolvers, typeDefs } from './graphql.ts';
import { optionsSchema, secrets, type OntologyOptions } from './options.ts';
import { backingDatasetRoutes } from './routes/backing-datasets.ts';
import { entityTypeRoutes } from './routes/entity-types.ts';
import { syncRoutes } from './routes/syncs.ts';
import { createServices } from './services.ts';
import { SYNC_TASK, type SyncJob } from './tasks/ontology.sync.ts';

export { optionsSchema, secrets };

export const plugin = definePlugin({
  name: 'ontology',
  version: '0.1.0',
  dependencies: ['tenancy', 'lakehouse', 'pipelines-apply'],
  // Identity policies resolve entities in syncs, pipelines-ai suggests mappings: each when loaded.
  optionalDependencies: ['identity', 'pipelines-ai'],
  register(server, options: OntologyOptions, deps) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const { context, policy, types, backing, syncs, runSync, kinds, api } = createServices(core, options,
      () => deps.lakehouse, () => deps.identity, () => deps['pipelines-ai']);
    // A killed worker's sync is retried once its heartbeat stops (core jobs: heartbeatSeconds).
    core.jobs.defineLongTask(SYNC_TASK, (data: SyncJob, job) => runSync(data, job.attempt, options.syncRetryLimit), {
      retryLimit: options.syncRetryLimit, retryDelaySeconds: 1, expireInSeconds: 6 * 3600, heartbeatSeconds: 10,
    });
    server.route([...entityTypeRoutes(types, policy), ...backingDatasetRoutes(backing, syncs, policy), ...syncRoutes(backing, syncs, policy)]);
    core.graphql.extend({ typeDefs, resolvers: resolvers(context, types, backing, syncs) });
    core.extensions.contribute('pipelines-apply.kinds', kinds.entityType);
    core.extensions.contribute('pipelines-apply.kinds', kinds.backingDataset);
    server.expose('api', api);
  },
});
