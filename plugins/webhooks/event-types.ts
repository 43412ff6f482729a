// The event types the webhooks plugin registers.
import type { EventTypeDefinition } from 'agent-platform/sdk';

export const EVENT_TYPES: EventTypeDefinition[] = [
  { type: 'webhook.received', description: 'An external webhook POST is received' },
];
