// The event types the sources plugin registers: a sync run's outcome, so that
// triggers and transforms can react to fresh data.
import type { EventTypeDefinition } from 'agent-platform/sdk';

export const SYNC_COMPLETED = 'source.sync.completed';
export const SYNC_FAILED = 'source.sync.failed';
export const EVENT_SOURCE = '/pipelines/sources';

const data = {
  type: 'object',
  required: ['source_id', 'sync_run_id', 'status'],
  properties: {
    source_id: { type: 'string' },
    source_name: { type: 'string' },
    sync_run_id: { type: 'string' },
    status: { type: 'string', enum: ['succeeded', 'partial', 'failed'] },
    trigger: { type: 'string' },
    rows_read: { type: 'integer' },
    rows_added: { type: 'integer' },
    rows_removed: { type: 'integer' },
    streams: { type: 'array' },
  },
};

export const EVENT_TYPES: EventTypeDefinition[] = [
  {
    type: SYNC_COMPLETED,
    description: 'A sync run ended with every stream (succeeded) or some (partial) committed; data has source_id, source_name, sync_run_id, status, trigger, row counts and streams [{name, destination, status, snapshot_id}]',
    schema: data,
  },
  {
    type: SYNC_FAILED,
    description: 'A sync run ended with no stream committed after its retries; data has source_id, source_name, sync_run_id, status, trigger, error and streams',
    schema: data,
  },
];
