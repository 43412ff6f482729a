// Pipeline sources: sources made from patterns (connectors), their streams,
// credentials (vault or legacy_inline), discovery and syncs that land streams
// in the lakehouse. Registration only.
import { addReadinessCheck, coreOf, definePlugin, metricsRegistryOf } from 'agent-platform/sdk';
import type {} from '../pipelines-apply/api.ts';
import { sourceKind } from './apply/kind.ts';
import { EVENT_TYPES } from './event-types.ts';
import { resolvers, typeDefs } from './graphql.ts';
import { optionsSchema, secrets, type SourcesOptions } from './options.ts';
import { credentialRoutes } from './routes/credentials.ts';
import { fileRoutes } from './routes/files.ts';
import { patternRoutes } from './routes/patterns.ts';
import { credentialPolicyCheck } from './credentials/readiness.ts';
import { sourceRoutes } from './routes/sources.ts';
import { registrationRoutes } from './routes/registrations.ts';
import { runRoutes } from './routes/runs.ts';
import { scheduleRoutes } from './routes/schedules.ts';
import { SOURCE_SCHEDULE, sourceScheduleKind } from './schedule/fire.ts';
import { streamRoutes } from './routes/streams.ts';
import { createServices } from './services.ts';
import { createDiscoveryRunner, DISCOVER_TASK, type DiscoverJob } from './sync/discovery.ts';
import { createSyncMetrics } from './sync/metrics.ts';
import { createSyncRunner, SYNC_TASK, type SyncJob } from './sync/runner.ts';
import './store/tables.ts';

export { optionsSchema, secrets };

export const plugin = definePlugin({
  name: 'pipelines-sources',
  version: '0.1.0',
  dependencies: ['tenancy', 'lakehouse', 'pipelines-apply'],
  // The platform_events pattern reads the events plugin's stream when it is loaded.
  optionalDependencies: ['events'],
  extensionPoints: { 'pipelines-sources.patterns': 'A source pattern (connector): id, name, configSchema, discover, read' },
  register(server, options: SourcesOptions, deps) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const { context, sources, streams, runs, credentials, files, schedules, registrations, api } =
      createServices(core, options, () => deps.lakehouse, () => deps.events);
    core.extensions.consume('pipelines-sources.patterns', (pattern) => context.patterns.register(pattern));
    const runSync = createSyncRunner(context, sources, createSyncMetrics(metricsRegistryOf(server)));
    const runDiscovery = createDiscoveryRunner(context, sources, streams);
    // A killed worker's sync is retried once its heartbeat stops (core jobs: heartbeatSeconds).
    core.jobs.defineLongTask(SYNC_TASK, (data: SyncJob, job) => runSync(data, job.attempt, job.signal), {
      retryLimit: options.syncRetryLimit, retryDelaySeconds: 1, expireInSeconds: options.syncTimeoutSeconds, heartbeatSeconds: 10,
    });
    core.jobs.defineLongTask(DISCOVER_TASK, (data: DiscoverJob, job) => runDiscovery(data, job.signal), { retryLimit: 0, expireInSeconds: 600 });
    server.route([...patternRoutes(context.patterns), ...sourceRoutes(sources), ...streamRoutes(streams), ...runRoutes(runs)]);
    server.route(credentialRoutes(credentials));
    server.route(fileRoutes(files, options.maxUploadBytes));
    core.schedules.define(SOURCE_SCHEDULE, sourceScheduleKind(context));
    server.route(scheduleRoutes(schedules));
    core.graphql.extend({ typeDefs, resolvers: resolvers(sources, streams, runs, context.patterns, () => deps.lakehouse) });
    server.route(registrationRoutes(registrations));
    server.ext('onPreStart', () => context.patterns.refresh());
    addReadinessCheck(server, 'source_credentials', credentialPolicyCheck(core));
    core.extensions.contribute('pipelines-apply.kinds', sourceKind(context, sources, streams));
    server.expose('api', api);
  },
});
