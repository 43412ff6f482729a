// The ontology: entity types with immutable versions, backing datasets that
// map lake datasets onto them, fingerprinted syncs that keep the entities
// current, the authorization policy, GraphQL over the entities, and the apply
// kinds EntityType and BackingDataset (live_ontology preflight). Registration only.
import type { Server } from '@hapi/hapi';
import { coreOf, definePlugin } from 'agent-platform/sdk';
import type { PipelinesAiApi } from '../pipelines-ai/api.ts';
import type { OntologyApi } from './api.ts';
import { registerApplyKinds, type applyKinds } from './apply/kinds.ts';
import { EVENT_TYPES } from './event-types.ts';
import { resolvers, typeDefs } from './graphql.ts';
import { optionsSchema, secrets, type OntologyOptions } from './options.ts';
import { backingDatasetRoutes } from './routes/backing-datasets.ts';
import { entityTypeRoutes } from './routes/entity-types.ts';
import { syncRoutes } from './routes/syncs.ts';
import { createServices } from './services.ts';
import type { IdentityPolicies } from './services/context.ts';
import { SYNC_TASK, type SyncJob } from './tasks/ontology.sync.ts';

export { optionsSchema, secrets };

declare module '@hapi/hapi' {
  interface PluginProperties {
    ontology: { api: OntologyApi; applyKinds: ReturnType<typeof applyKinds> };
  }
}

export const plugin = definePlugin<OntologyOptions>({
  name: 'ontology',
  version: '0.1.0',
  dependencies: ['tenancy', 'lakehouse', 'pipelines-apply'],
  register(server: Server, options) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const plugins = server.plugins as unknown as Record<string, { api?: unknown } | undefined>;
    const { context, policy, types, backing, syncs, runSync, kinds, api } = createServices(core, options,
      () => server.plugins.lakehouse.api, () => plugins.identity?.api as IdentityPolicies | undefined,
      () => plugins['pipelines-ai']?.api as PipelinesAiApi | undefined);
    // A killed worker's sync is retried once its heartbeat stops (core jobs: heartbeatSeconds).
    core.jobs.defineLongTask(SYNC_TASK, (data: SyncJob, job) => runSync(data, job.attempt, options.syncRetryLimit), {
      retryLimit: options.syncRetryLimit, retryDelaySeconds: 1, expireInSeconds: 6 * 3600, heartbeatSeconds: 10,
    });
    server.route([...entityTypeRoutes(types, policy), ...backingDatasetRoutes(backing, syncs, policy), ...syncRoutes(backing, syncs, policy)]);
    core.graphql.extend({ typeDefs, resolvers: resolvers(context, types, backing, syncs) });
    registerApplyKinds(server, kinds);
    server.expose('api', api);
    server.expose('applyKinds', kinds);
  },
});
