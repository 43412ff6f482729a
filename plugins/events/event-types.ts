// The event types the events plugin registers: those its triggers emit.
// (approval.created / approval.resolved are the approvals plugin's.) Every other plugin
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
];
