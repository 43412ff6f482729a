// Pipelines: DAGs of transform steps with validation, immutable versions,
// sandbox runs, activation, scheduled and sensor-driven runs (one pg-boss job
// per step), and the /temporal orchestrator endpoints. Registration only.
import type { Server } from '@hapi/hapi';
import { badRequest, coreOf, definePlugin, type TenantTransaction } from 'agent-platform/sdk';
import type { PipelinesApi } from './api.ts';
import { pipelineKind } from './apply-kind.ts';
import { createContext } from './context.ts';
import { publicValidation, validateDag } from './dag/validate.ts';
import { EVENT_TYPES } from './event-types.ts';
import { resolvers, typeDefs } from './graphql.ts';
import { optionsSchema, type PipelinesOptions } from './options.ts';
import { pipelineRoutes } from './routes-pipelines.ts';
import { runRoutes } from './routes-runs.ts';
import { temporalRoutes } from './routes-temporal.ts';
import { STEP_TASK, type StepJob } from './runner/step-job.ts';
import { STEP_DEAD_TASK, stepDeadTask, stepDeadTaskOptions } from './tasks/pipelines.run_step.dead.ts';
import { PIPELINE_SCHEDULE, pipelineScheduleKind } from './schedule.ts';
import { pipelineCreate, pipelinePut } from './schemas.ts';
import { runSensor, SENSOR_TASK, type SensorJob } from './sensor.ts';
import { createServices } from './services.ts';
import type { TransformsPort } from './transforms-port.ts';
import './tables.ts';

export { optionsSchema };
export { cli } from './cli.ts';

declare module '@hapi/hapi' {
  interface PluginProperties {
    pipelines: { api: PipelinesApi };
  }
}

/** The declarative spec (a create or put body), checked as REST checks it. */
function checked(schema: typeof pipelineCreate, spec: Record<string, unknown>) {
  const { value, error } = schema.validate(spec);
  if (error) throw badRequest(error.message, 'VALIDATION_FAILED');
  return value;
}

export const plugin = definePlugin<PipelinesOptions>({
  name: 'pipelines',
  version: '0.1.0',
  dependencies: ['tenancy', 'lakehouse', 'pipelines-apply'],
  register(server: Server, options) {
    const core = coreOf(server);
    core.events.registerTypes(EVENT_TYPES);
    const plugins = server.plugins as unknown as Record<string, { api?: unknown } | undefined>;
    const context = createContext(core, options, {
      lake: () => server.plugins.lakehouse.api,
      transforms: () => plugins['pipelines-transforms']?.api as TransformsPort | undefined,
      events: () => server.plugins.events?.api,
    });
    const { pipelines, runs, runStep, abandonStep, describe, workflows } = createServices(context);
    core.jobs.defineLongTask(STEP_TASK, (data: StepJob, job) => runStep(data, job.signal), {
      retryLimit: options.stepRetryLimit, retryDelaySeconds: 1, expireInSeconds: options.stepTimeoutSeconds + 60, heartbeatSeconds: 10, concurrency: 4,
    });
    core.jobs.defineLongTask(STEP_DEAD_TASK, stepDeadTask(abandonStep), stepDeadTaskOptions);
    core.schedules.define(PIPELINE_SCHEDULE, pipelineScheduleKind(context, runs.startScheduled));
    core.jobs.defineTask(SENSOR_TASK, (job: SensorJob) => runSensor(context, job, runs.startSensed));
    server.route([...pipelineRoutes(pipelines), ...runRoutes(context, runs), ...temporalRoutes(describe, workflows)]);
    core.graphql.extend({ typeDefs, resolvers: resolvers(pipelines, runs) });
    server.plugins['pipelines-apply'].api.registerKind(pipelineKind(context, pipelines));
    const api: PipelinesApi = {
      validateDag: async (tenantId, steps) => publicValidation(await validateDag(context, tenantId, steps)),
      findPipelineByName: async (tenantId, name) => {
        const found = await pipelines.findByName(tenantId, name);
        return found ? { id: found.id, spec: { name: found.name, description: found.description, steps: found.steps, schedule: found.schedule, sensor: found.sensor } } : null;
      },
      createPipeline: async (trx: TenantTransaction, tenantId, spec) => ({ id: (await pipelines.createIn(trx, tenantId, checked(pipelineCreate, spec), null)).id }),
      updatePipeline: async (trx: TenantTransaction, tenantId, id, spec) => ({ id: (await pipelines.updateIn(trx, tenantId, id, checked(pipelinePut, spec))).id }),
      startSandbox: async (tenantId, pipelineId) => ({ workflowId: (await runs.startSandbox(tenantId, pipelineId, undefined, null)).workflow_id }),
    };
    server.expose('api', api);
  },
});
