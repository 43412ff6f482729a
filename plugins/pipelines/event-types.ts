// The event types the pipelines plugin registers: a production run's start and outcome.
import type { EventTypeDefinition } from 'agent-platform/sdk';

export const RUN_STARTED = 'pipeline.run.started';
export const RUN_COMPLETED = 'pipeline.run.completed';
export const RUN_FAILED = 'pipeline.run.failed';
export const EVENT_SOURCE = '/pipelines';

const data = {
  type: 'object',
  required: ['pipeline_id', 'run_id', 'version', 'trigger'],
  properties: {
    pipeline_id: { type: 'string' },
    pipeline_name: { type: 'string' },
    run_id: { type: 'string' },
    version: { type: 'integer' },
    trigger: { type: 'string' },
    status: { type: 'string' },
    error: { type: 'string' },
    steps: { type: 'array' },
  },
};

export const EVENT_TYPES: EventTypeDefinition[] = [
  { type: RUN_STARTED, description: 'A production run of an active pipeline started (manual, schedule, sensor or orchestrator); data has pipeline_id, pipeline_name, run_id, version, trigger', schema: data },
  { type: RUN_COMPLETED, description: 'Every step of a pipeline run succeeded; data has pipeline_id, pipeline_name, run_id, version, trigger, status, steps [{step_id, output_dataset, snapshot_id, rows}]', schema: data },
  { type: RUN_FAILED, description: 'A pipeline run ended with a failed step (or was cancelled); data has pipeline_id, pipeline_name, run_id, version, trigger, status, error, steps', schema: data },
];
