// Pipelines: DAGs of transform steps with validation, immutable versions,
// sandbox runs, activation, scheduled and sensor-driven runs (one pg-boss job
// per step), and the /temporal orchestrator endpoints. Registration only.
import { coreOf, definePlugin } from 'agent-platform/sdk';
import type {} from '../pipelines-apply/api.ts';
import { pipelineKind } from './apply/pipeline-kind.ts';
import { EVENT_TYPES } from './event-types.ts';
import { resolvers, transformRunResolvers, transformRunTypeDefs, typeDefs } from './graphql.ts';
import { optionsSchema, type PipelinesOptions } from './options.ts';
import { pipelineRoutes } from './routes/pipelines.ts';
import { runRoutes } from './routes/runs.ts';
import { temporalRoutes } from './routes/temporal.ts';
import { STEP_TASK, type StepJob } from './runner/step-job.ts';
import { STEP_DEAD_TASK, stepDeadTask, stepDeadTaskOptions } from './tasks/pipelines.run_step.dead.ts';
import { PIPELINE_SCHEDULE, pipelineScheduleKind } from './triggers/schedule.ts';
import { runSensor, SENSOR_TASK, type SensorJob } from './triggers/sensor.ts';
import { createServices } from './services.ts';
import './store/tables.ts';

export { optionsSchema };
export { cli } from './cli.ts';

export const plugin = definePlugin({
  name: 'pipelines',
  version: '0.1.0',
  dependencies: ['tenancy', 'lakehouse', 'pipelines-apply'],
  // Without transforms, steps naming one fail with TRANSFORMS_UNAVAILABLE; without events, sensors see none.
  optionalDependencies: ['pipelines-transforms', 'events'],
  register(server, options: PipelinesOptions, deps) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const { context, pipelines, runs, runStep, abandonStep, describe, workflows, api } = createServices(core, options, {
      lake: () => deps.lakehouse,
      transforms: () => deps['pipelines-transforms'],
      events: () => deps.events,
    });
    core.jobs.defineLongTask(STEP_TASK, (data: StepJob, job) => runStep(data, job.signal), {
      retryLimit: options.stepRetryLimit, retryDelaySeconds: 1, expireInSeconds: options.stepTimeoutSeconds + 60, heartbeatSeconds: 10, concurrency: 4,
    });
    core.jobs.defineLongTask(STEP_DEAD_TASK, stepDeadTask(abandonStep), stepDeadTaskOptions);
    core.schedules.define(PIPELINE_SCHEDULE, pipelineScheduleKind(context, runs.startScheduled));
    core.jobs.defineTask(SENSOR_TASK, (job: SensorJob) => runSensor(context, job, runs.startSensed));
    server.route([...pipelineRoutes(pipelines), ...runRoutes(context, runs), ...temporalRoutes(describe, workflows)]);
    core.graphql.extend({ typeDefs, resolvers: resolvers(pipelines, runs, () => deps.lakehouse) });
    if (deps['pipelines-transforms']) core.graphql.extend({ typeDefs: transformRunTypeDefs, resolvers: transformRunResolvers(runs) });
    core.extensions.contribute('pipelines-apply.kinds', pipelineKind(context, pipelines));
    server.expose('api', api);
  },
});
