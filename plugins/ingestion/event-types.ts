// The event types the ingestion plugin registers.
import type { EventTypeDefinition } from 'agent-platform/sdk';

/** The `source` of every event ingestion emits. */
export const EVENT_SOURCE = '/ingestion';

export const EVENT_TYPES: EventTypeDefinition[] = [
  { type: 'document.uploaded', description: 'A document is uploaded to a collection' },
  { type: 'document.ingested', description: 'Ingestion of a document completes successfully' },
  { type: 'document.ingestion_failed', description: 'Ingestion of a document fails' },
];
