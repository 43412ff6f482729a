// The event types the events plugin registers: those its triggers emit, and
// the approval types until an approvals plugin owns them. Every other plugin
// registers its own (core.events.registerTypes); together they are the
// built-in list of core-platform section 6.
import type { EventTypeDefinition } from 'agent-platform/sdk';

export const SCHEDULE_FIRED = 'schedule.fired';
export const DEADMAN_FIRED = 'deadman.fired';
/** The `source` of the events this plugin emits itself. */
export const EVENT_SOURCE = '/triggers';

export const EVENT_TYPES: EventTypeDefinition[] = [
  { type: SCHEDULE_FIRED, description: 'A scheduled trigger reaches its cron time; data has scheduled_time' },
  { type: DEADMAN_FIRED, description: 'The event a deadman trigger watches did not occur within its window' },
  { type: 'approval.created', description: 'An approval case is created (workflow gate or agent escalation)' },
  { type: 'approval.resolved', description: 'An approval case is approved or rejected' },
];
