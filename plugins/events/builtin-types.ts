// The built-in event types (core-platform section 6), each with what emits it.
// A custom type may not take one of these names.
export interface BuiltinEventType {
  type: string;
  description: string;
}

export const BUILTIN_EVENT_TYPES: readonly BuiltinEventType[] = [
  { type: 'document.uploaded', description: 'A document is uploaded to a collection' },
  { type: 'document.ingested', description: 'Ingestion of a document completes successfully' },
  { type: 'document.ingestion_failed', description: 'Ingestion of a document fails' },
  { type: 'workflow.completed', description: 'A workflow execution completes' },
  { type: 'workflow.failed', description: 'A workflow execution fails (or is cancelled)' },
  { type: 'approval.created', description: 'An approval case is created (workflow gate or agent escalation)' },
  { type: 'approval.resolved', description: 'An approval case is approved or rejected' },
  { type: 'webhook.received', description: 'An external webhook POST is received' },
  { type: 'schedule.fired', description: 'A scheduled trigger reaches its cron time; data has scheduled_time' },
  { type: 'deadman.fired', description: 'The event a deadman trigger watches did not occur within its window' },
  { type: 'chat.session.created', description: 'A chat session is created through the API' },
  { type: 'chat.session.ended', description: 'A chat session workflow completes or times out' },
  { type: 'chat.tool.called', description: 'A tool is invoked in a chat session' },
  { type: 'chat.tool.completed', description: 'A tool invocation in a chat session succeeds' },
  { type: 'chat.tool.failed', description: 'A tool invocation in a chat session fails' },
  { type: 'agent.loop.started', description: 'An agent loop begins' },
  { type: 'agent.loop.completed', description: 'An agent loop finishes' },
  { type: 'agent.loop.iteration', description: 'An agent loop completes a reasoning cycle (only when emit_iteration_events is on)' },
  { type: 'agent.loop.failed', description: 'An agent loop errors or exceeds its iteration or token budget' },
  { type: 'definition.created', description: 'A function, workflow or agent definition is created' },
  { type: 'definition.updated', description: 'A function, workflow or agent definition changes; data carries changed_fields' },
  { type: 'definition.deleted', description: 'A function, workflow or agent definition is deleted' },
];

const BUILTIN = new Set(BUILTIN_EVENT_TYPES.map((entry) => entry.type));

export const isBuiltinEventType = (type: string): boolean => BUILTIN.has(type);

export const SCHEDULE_FIRED = 'schedule.fired';
export const DEADMAN_FIRED = 'deadman.fired';
/** The `source` of the events this plugin emits itself. */
export const EVENT_SOURCE = '/triggers';
