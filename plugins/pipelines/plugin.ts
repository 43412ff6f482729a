// Pipelines: DAGs of transform steps with validation, immutable versions,
// sandbox runs, activation, scheduled and sensor-driven runs (one pg-boss job
// per step), and the /temporal orchestrator endpoints. Registration only.
import type { Server } from '@hapi/hapi';
import { coreOf, definePlugin } from 'agent-platform/sdk';
import type { PipelinesApi } from './api.ts';
import { pipelineKind } from './apply/pipeline-kind.ts';
import { EVENT_TYPES } from './event-types.ts';
import { resolvers, typeDefs } from './graphql.ts';
import { optionsSchema, type PipelinesOptions } from './options.ts';
import { pipelineRoutes } from './routes/pipelines.ts';
import { runRoutes } from './routes/runs.ts';
import { temporalRoutes } from './routes/temporal.ts';
import { STEP_TASK, type StepJob } from './runner/step-job.ts';
import { STEP_DEAD_TASK, stepDeadTask, stepDeadTaskOptions } from './tasks/pipelines.run_step.dead.ts';
import { PIPELINE_SCHEDULE, pipelineScheduleKind } from './triggers/schedule.ts';
import { runSensor, SENSOR_TASK, type SensorJob } from './triggers/sensor.ts';
import { createServices } from './services.ts';
import type { TransformsPort } from './runner/transforms-port.ts';
import './store/tables.ts';

export { optionsSchema };
export { cli } from './cli.ts';

declare module '@hapi/hapi' {
  interface PluginProperties {
    pipelines: { api: PipelinesApi };
  }
}

export const plugin = definePlugin<PipelinesOptions>({
  name: 'pipelines',
  version: '0.1.0',
  dependencies: ['tenancy', 'lakehouse', 'pipelines-apply'],
  register(server: Server, options) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const plugins = server.plugins as unknown as Record<string, { api?: unknown } | undefined>;
    const { context, pipelines, runs, runStep, abandonStep, describe, workflows, api } = createServices(core, options, {
      lake: () => server.plugins.lakehouse.api,
      transforms: () => plugins['pipelines-transforms']?.api as TransformsPort | undefined,
      events: () => server.plugins.events?.api,
    });
    core.jobs.defineLongTask(STEP_TASK, (data: StepJob, job) => runStep(data, job.signal), {
      retryLimit: options.stepRetryLimit, retryDelaySeconds: 1, expireInSeconds: options.stepTimeoutSeconds + 60, heartbeatSeconds: 10, concurrency: 4,
    });
    core.jobs.defineLongTask(STEP_DEAD_TASK, stepDeadTask(abandonStep), stepDeadTaskOptions);
    core.schedules.define(PIPELINE_SCHEDULE, pipelineScheduleKind(context, runs.startScheduled));
    core.jobs.defineTask(SENSOR_TASK, (job: SensorJob) => runSensor(context, job, runs.startSensed));
    server.route([...pipelineRoutes(pipelines), ...runRoutes(context, runs), ...temporalRoutes(describe, workflows)]);
    core.graphql.extend({ typeDefs, resolvers: resolvers(pipelines, runs) });
    server.plugins['pipelines-apply'].api.registerKind(pipelineKind(context, pipelines));
    server.expose('api', api);
  },
});
