// AI assistance for the data pipelines: suggestions from
// datasets, SQL review, drafts by the platform's model (validated by the
// transforms and pipelines plugins before they are returned), publishing a
// reviewed transform, asynchronous pipeline composition; the api of model
// mapping suggestions (the ontology's). Registration only.
import { coreOf, definePlugin } from 'agent-platform/sdk';
import { optionsSchema, secrets, type AiOptions } from './options.ts';
import { aiRoutes } from './routes/ai.ts';
import { createServices } from './services.ts';
import { COMPOSE_TASK } from './services/compose.ts';
import { composeTask, composeTaskOptions } from './tasks/pipelines-ai.compose.ts';
import { COMPOSE_DEAD_TASK, composeDeadTask, composeDeadTaskOptions } from './tasks/pipelines-ai.compose.dead.ts';
import './store/tables.ts';

export { optionsSchema, secrets };

export const plugin = definePlugin({
  name: 'pipelines-ai',
  version: '0.1.0',
  dependencies: ['tenancy', 'lakehouse', 'pipelines-sources', 'pipelines-transforms', 'pipelines'],
  register(server, options: AiOptions, deps) {
    const core = coreOf(server);
    const { compose, suggest, sql, api } = createServices(core, options, {
      lake: () => deps.lakehouse,
      transforms: () => deps['pipelines-transforms'],
      pipelines: () => deps.pipelines,
      sources: () => deps['pipelines-sources'],
    });
    core.jobs.defineLongTask(COMPOSE_TASK, composeTask(compose, options), composeTaskOptions(options));
    core.jobs.defineLongTask(COMPOSE_DEAD_TASK, composeDeadTask(compose), composeDeadTaskOptions);
    server.route(aiRoutes(suggest, sql, compose));
    server.expose('api', api);
  },
});
