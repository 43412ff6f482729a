// Forms: Form.io form definitions with immutable versions, use cases binding
// a pinned version to a hydration target, field bindings with transforms,
// uploads with single-use tokens, immutable submissions validated by Form.io's
// engine and hydrated atomically by the target. Exposes FormsApi
// (validateAgainstForm, claimFiles, ...); partner plugins add hydration
// targets to its `forms.targets` extension point. Registration only.
import { coreOf, definePlugin } from 'agent-platform/sdk';
import { EVENT_TYPES } from './event-types.ts';
import { resolvers, typeDefs } from './graphql.ts';
import { optionsSchema, type FormsOptions } from './options.ts';
import { definitionRoutes } from './routes/definitions.ts';
import { publicRoutes } from './routes/public.ts';
import { publicGate } from './routes/public-gate.ts';
import { submissionRoutes } from './routes/submissions.ts';
import { targetRoutes } from './routes/targets.ts';
import { useCaseRoutes } from './routes/use-cases.ts';
import { ReadSlots } from './services/read-slots.ts';
import { createServices } from './services.ts';
import { PRUNE_CRON, PRUNE_TASK, pruneFilesTask } from './tasks/forms.prune_files.ts';
import './store/tables.ts';

export { cli } from './cli.ts';
export { optionsSchema };

export const plugin = definePlugin({
  name: 'forms',
  version: '0.1.0',
  dependencies: ['tenancy'],
  extensionPoints: { 'forms.targets': 'A hydration target (model, label, configSchema, discoverFields, hydrate): what a use case\'s submissions become' },
  async register(server, options: FormsOptions) {
    const core = coreOf(server);
    const services = createServices(core, options);
    core.extensions.consume('forms.targets', (target) => services.registry.register(target));
    core.events.registerTypes(EVENT_TYPES);
    core.jobs.defineLongTask(PRUNE_TASK, pruneFilesTask(core), { retryLimit: 1 });
    await core.jobs.schedule(PRUNE_TASK, PRUNE_TASK, PRUNE_CRON);
    const gate = publicGate(core, options, services.limiter, services.files, new ReadSlots(options.maxConcurrentUploads));
    server.route([
      ...definitionRoutes(services.definitions),
      ...useCaseRoutes(services.useCases),
      ...targetRoutes(services.targets),
      ...submissionRoutes(services.submissions, services.adminSubmissions),
      ...publicRoutes(core, options, gate, services.submissions, services.files),
    ]);
    core.graphql.extend({ typeDefs, resolvers: resolvers(services.adminSubmissions) });
    server.expose('api', services.api);
  },
});
