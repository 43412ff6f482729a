// The ontology: entity types with immutable versions, backing datasets that
// map lake datasets onto them, fingerprinted syncs that keep the entities
// current, the authorization policy, GraphQL over the entities, and the apply
// kinds EntityType and BackingDataset (live_ontology preflight). Registration only.
import type { Server } from '@hapi/hapi';
import { coreOf, definePlugin } from 'agent-platform/sdk';
import type { PipelinesAiApi } from '../pipelines-ai/api.ts';
import type { OntologyApi } from './api.ts';
import { applyKinds, registerApplyKinds } from './apply-kinds.ts';
import type { IdentityPolicies, OntologyContext } from './context.ts';
import { EVENT_TYPES } from './event-types.ts';
import { resolvers, typeDefs } from './graphql.ts';
import { optionsSchema, secrets, type OntologyOptions } from './options.ts';
import { createPolicy } from './policy.ts';
import { backingDatasetRoutes } from './routes-backing-datasets.ts';
import { entityTypeRoutes } from './routes-entity-types.ts';
import { syncRoutes } from './routes-syncs.ts';
import { createBackingDatasetService } from './service-backing-datasets.ts';
import { createEntityTypeService } from './service-entity-types.ts';
import { createSyncService } from './service-syncs.ts';
import { createSyncRunner } from './sync/runner.ts';
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
    const policy = createPolicy(options, core.tenants);
    const plugins = server.plugins as unknown as Record<string, { api?: unknown } | undefined>;
    const context: OntologyContext = {
      core, options, policy, lake: () => server.plugins.lakehouse.api, identity: () => plugins.identity?.api as IdentityPolicies | undefined,
      ai: () => plugins['pipelines-ai']?.api as PipelinesAiApi | undefined,
    };
    const types = createEntityTypeService(core);
    const backing = createBackingDatasetService(context);
    const syncs = createSyncService(context, backing);
    const runSync = createSyncRunner(context);
    // A killed worker's sync is retried once its heartbeat stops (core jobs: heartbeatSeconds).
    core.jobs.defineLongTask(SYNC_TASK, (data: SyncJob, job) => runSync(data, job.attempt, options.syncRetryLimit), {
      retryLimit: options.syncRetryLimit, retryDelaySeconds: 1, expireInSeconds: 6 * 3600, heartbeatSeconds: 10,
    });
    server.route([...entityTypeRoutes(types, policy), ...backingDatasetRoutes(backing, syncs, policy), ...syncRoutes(backing, syncs, policy)]);
    core.graphql.extend({ typeDefs, resolvers: resolvers(context, types, backing, syncs) });
    const kinds = applyKinds(context, types, backing);
    registerApplyKinds(server, kinds);
    const api: OntologyApi = {
      async getEntityType(tenantId, code, version) {
        const row = await types.version(tenantId, code, version);
        return row ? { code: row.code, version: row.version, properties: row.properties, keys: row.keys } : null;
      },
    };
    server.expose('api', api);
    server.expose('applyKinds', kinds);
  },
});
