// The event types the workflows plugin registers. definition.* is shared:
// the integrations and chat plugins emit it too (for their functions and
// agents), and a type has one owner, so it is registered here.
import type { EventTypeDefinition } from 'agent-platform/sdk';

export const EVENT_TYPES: EventTypeDefinition[] = [
  { type: 'workflow.completed', description: 'A workflow execution completes' },
  { type: 'workflow.failed', description: 'A workflow execution fails (or is cancelled)' },
  { type: 'definition.created', description: 'A function, workflow or agent definition is created' },
  { type: 'definition.updated', description: 'A function, workflow or agent definition changes; data carries changed_fields' },
  { type: 'definition.deleted', description: 'A function, workflow or agent definition is deleted' },
];
