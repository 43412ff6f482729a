// The event types the ontology emits (registered through the contract).
import type { EventTypeDefinition } from 'agent-platform/sdk';

export const SYNC_COMPLETED = 'ontology.sync.completed';
export const SYNC_FAILED = 'ontology.sync.failed';
export const SYNC_SKIPPED = 'ontology.sync.skipped';
export const ENTITY_TYPE_CHANGED = 'ontology.entity_type.changed';

const runSchema = {
  type: 'object',
  required: ['backing_dataset_id', 'run_id', 'attempted_sync_spec_fingerprint'],
  properties: {
    backing_dataset_id: { type: 'string' }, run_id: { type: 'string' }, attempted_sync_spec_fingerprint: { type: 'string' },
    snapshot_id_exact: { type: ['string', 'null'] }, rows_synced: { type: 'integer' },
  },
};

export const EVENT_TYPES: EventTypeDefinition[] = [
  { type: SYNC_COMPLETED, description: 'A backing-dataset sync applied a snapshot to the entities; data has backing_dataset_id, run_id, attempted_sync_spec_fingerprint, snapshot_id_exact, rows_synced, replay_reason', schema: runSchema },
  { type: SYNC_FAILED, description: 'A backing-dataset sync failed (the applied fingerprint is unchanged); data has backing_dataset_id, run_id, attempted_sync_spec_fingerprint, error', schema: runSchema },
  { type: SYNC_SKIPPED, description: 'A backing-dataset sync found the snapshot and the effective spec unchanged; data has backing_dataset_id, run_id, attempted_sync_spec_fingerprint', schema: runSchema },
  {
    type: ENTITY_TYPE_CHANGED,
    description: 'An entity type was created, got a new version, was deprecated or deleted; data has code, version, change (created|versioned|deprecated|deleted)',
    schema: { type: 'object', required: ['code', 'change'], properties: { code: { type: 'string' }, version: { type: ['integer', 'null'] }, change: { type: 'string' } } },
  },
];
