// Workflows: definitions, executions driven by the pure engine
// (workflows/engine) through graphile-worker jobs, the built-in ACTION
// functions (log, emit_event, http_request), REST, GraphQL and CLI. Exposes
// WorkflowsApi (start, signal, gates) to the plugins that depend on it.
import { coreOf, definePlugin } from 'agent-platform/sdk';
import { EVENT_TYPES } from './event-types.ts';
import { optionsSchema, type WorkflowsOptions } from './options.ts';
import { START_TASK, STEP_TASK, TIMEOUT_TASK } from './execution/runner.ts';
import { createServices } from './services.ts';
import { workflowsRoutes } from './routes/workflows.ts';
import { typeDefs, resolvers } from './graphql.ts';
import { startTask } from './tasks/workflows.start.ts';
import { stepTask } from './tasks/workflows.step.ts';
import { timeoutTask } from './tasks/workflows.timeout.ts';
import { logFunction } from './functions/log.ts';
import { emitEventFunction } from './functions/emit-event.ts';
import { httpRequestFunction } from './functions/http-request.ts';

export { cli } from './cli.ts';
export { optionsSchema };

export const plugin = definePlugin({
  name: 'workflows',
  version: '0.1.0',
  dependencies: ['tenancy'],
  register(server, options: WorkflowsOptions) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const { runner, workflows: service, api } = createServices(core, options);

    core.jobs.defineTask(START_TASK, startTask(runner));
    core.jobs.defineTask(STEP_TASK, stepTask(core, runner, { actionAttempts: options.actionAttempts }));
    core.jobs.defineTask(TIMEOUT_TASK, timeoutTask(runner));

    core.functions.register('log', logFunction(core.logger.child({ component: 'workflows' })));
    core.functions.register('emit_event', emitEventFunction(core.events));
    core.functions.register('http_request', httpRequestFunction({
      fetch: core.http.fetch({ allowPrivateNetworks: options.allowPrivateNetworks }),
      defaultTimeoutMs: options.httpTimeoutMs,
      maxResponseBytes: options.httpMaxResponseBytes,
    }));

    server.route(workflowsRoutes(service));
    core.graphql.extend({ typeDefs, resolvers: resolvers(service) });
    server.expose('api', api);
  },
});
