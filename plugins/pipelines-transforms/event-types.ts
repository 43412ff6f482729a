// The event types the transforms plugin emits (registered through the contract).
import type { EventTypeDefinition } from 'agent-platform/sdk';

export const EVENT_SOURCE = '/api/v1/transforms';
export const RUN_COMPLETED = 'transform.run.completed';
export const RUN_FAILED = 'transform.run.failed';

const runData = {
  type: 'object',
  required: ['transform_id', 'run_id', 'status'],
  properties: {
    transform_id: { type: 'string' }, run_id: { type: 'string' }, status: { type: 'string' }, trigger: { type: 'string' },
    output_dataset: { type: 'string' }, snapshot_id: { type: ['string', 'null'] }, rows: { type: ['integer', 'null'] },
    error: { type: ['object', 'null'] }, pipeline_run_id: { type: ['string', 'null'] },
  },
};

export const EVENT_TYPES: EventTypeDefinition[] = [
  { type: RUN_COMPLETED, description: 'A transform run materialized its output; data has transform_id, run_id, output_dataset, snapshot_id (decimal string), rows', schema: runData },
  { type: RUN_FAILED, description: 'A transform run failed or was cancelled (status failed or cancelled); data has transform_id, run_id, error', schema: runData },
];
