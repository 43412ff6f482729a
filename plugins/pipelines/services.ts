// The one factory of the pipelines plugin's services (register and tests wire it the same way).
import type { PipelinesContext } from './services/context.ts';
import { createStepRunner } from './runner/step.ts';
import { createPipelineService } from './services/pipelines.ts';
import { createRunService } from './services/runs.ts';
import { createDescribeService } from './temporal/describe.ts';
import { createWorkflowService } from './temporal/workflows.ts';

export function createServices(context: PipelinesContext) {
  const pipelines = createPipelineService(context);
  const runs = createRunService(context, pipelines);
  const { runStep, abandonStep } = createStepRunner(context, runs.afterRun);
  return {
    pipelines, runs, runStep, abandonStep,
    describe: createDescribeService(context), workflows: createWorkflowService(context, runs),
  };
}
