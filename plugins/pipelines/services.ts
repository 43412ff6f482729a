// The one factory of the pipelines plugin's services and api (register, the
// CLI and tests wire it the same way).
import { badRequest, type CoreServices, type TenantTransaction } from 'agent-platform/sdk';
import type { PipelinesApi } from './api.ts';
import { publicValidation, validateDag } from './dag/validate.ts';
import { pipelineCreate, pipelinePut } from './schemas.ts';
import type { PipelinesOptions } from './options.ts';
import { createContext } from './services/context.ts';
import { createStepRunner } from './runner/step.ts';
import { createPipelineService } from './services/pipelines.ts';
import { createRunService } from './services/runs.ts';
import { createDescribeService } from './temporal/describe.ts';
import { createWorkflowService } from './temporal/workflows.ts';

/** The declarative spec (a create or put body), checked as REST checks it. */
function checked(schema: typeof pipelineCreate, spec: Record<string, unknown>) {
  const { value, error } = schema.validate(spec);
  if (error) throw badRequest(error.message, 'VALIDATION_FAILED');
  return value;
}

/** The apis of the plugins the services use, read when used. */
export type PipelinesPeers = Parameters<typeof createContext>[2];

export function createServices(core: CoreServices, options: PipelinesOptions, peers: PipelinesPeers) {
  const context = createContext(core, options, peers);
  const pipelines = createPipelineService(context);
  const runs = createRunService(context, pipelines);
  const { runStep, abandonStep } = createStepRunner(context, runs.afterRun);
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
  return {
    context, pipelines, runs, runStep, abandonStep,
    describe: createDescribeService(context), workflows: createWorkflowService(context, runs), api,
  };
}
