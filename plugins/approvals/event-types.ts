// The event types the approvals plugin emits (built-in types of the platform, registered here).
import type { EventTypeDefinition } from 'agent-platform/sdk';

export const APPROVAL_CREATED = 'approval.created';
export const APPROVAL_RESOLVED = 'approval.resolved';
/** The `source` of the events this plugin emits. */
export const EVENT_SOURCE = '/approvals';

const caseData = {
  case_id: { type: 'string' },
  status: { type: 'string' },
  source: { type: 'object' },
  decisions: { type: 'array' },
};

export const EVENT_TYPES: EventTypeDefinition[] = [
  {
    type: APPROVAL_CREATED,
    description: 'An approval case is created (workflow gate or agent escalation); data has case_id, status, title, source, approvers, quorum, expires_at, decisions',
    schema: { type: 'object', required: ['case_id', 'status', 'source'], properties: caseData },
  },
  {
    type: APPROVAL_RESOLVED,
    description: 'An approval case is approved or rejected (or expires, or is cancelled); data has case_id, status, source, decisions, timed_out',
    schema: { type: 'object', required: ['case_id', 'status', 'source', 'decisions'], properties: caseData },
  },
];
