// The event types the lakehouse registers.
import type { EventTypeDefinition } from 'agent-platform/sdk';

export const SNAPSHOT_CREATED = 'dataset.snapshot_created';
export const EVENT_SOURCE = '/lakehouse';

export const EVENT_TYPES: EventTypeDefinition[] = [
  {
    type: SNAPSHOT_CREATED,
    description: 'A write gave a dataset a new snapshot (a sync of a stream, a materialization); data has dataset_id, snapshot_id (decimal string), operation, rows_added, rows_removed, row_count, producer',
    schema: {
      type: 'object',
      required: ['dataset_id', 'snapshot_id', 'operation'],
      properties: {
        dataset_id: { type: 'string' },
        snapshot_id: { type: 'string', pattern: '^[0-9]+$' },
        operation: { type: 'string' },
        rows_added: { type: 'integer' },
        rows_removed: { type: 'integer' },
        row_count: { type: 'integer' },
      },
    },
  },
];
