// The event types the occurrences plugin registers and emits (in the
// transaction of what they report). Only occurrence.message_sent carries a
// reporter's contact (its `recipient`): delivering the message is its purpose.
import type { EventTypeDefinition } from 'agent-platform/sdk';

export const OCCURRENCE_SUBMITTED = 'occurrence.submitted';
export const OCCURRENCE_DUPLICATE_DETECTED = 'occurrence.duplicate_detected';
export const OCCURRENCE_STATE_CHANGED = 'occurrence.state_changed';
export const OCCURRENCE_MESSAGE_SENT = 'occurrence.message_sent';

const text = { type: 'string' };
const nullableText = { type: ['string', 'null'] };
const int = { type: 'integer' };

export const EVENT_TYPES: EventTypeDefinition[] = [
  {
    type: OCCURRENCE_SUBMITTED,
    description: 'An occurrence was reported (public submission, form, Open311); data has occurrence_id, reference, occurrence_type, state, source',
    schema: {
      type: 'object', required: ['occurrence_id', 'reference', 'occurrence_type', 'state', 'source'],
      properties: { occurrence_id: int, reference: text, occurrence_type: int, state: text, source: text },
    },
  },
  {
    type: OCCURRENCE_DUPLICATE_DETECTED,
    description: 'A new occurrence resembles open ones nearby (policy warn: it was created); data has occurrence_id, reference, suggested_action, similar_ids',
    schema: {
      type: 'object', required: ['occurrence_id', 'reference', 'suggested_action', 'similar_ids'],
      properties: { occurrence_id: int, reference: text, suggested_action: text, similar_ids: { type: 'array', items: int } },
    },
  },
  {
    type: OCCURRENCE_STATE_CHANGED,
    description: 'An occurrence moved to another state; data has occurrence_id, reference, from_state, to_state, duplicate_of, actor',
    schema: {
      type: 'object', required: ['occurrence_id', 'reference', 'from_state', 'to_state'],
      properties: { occurrence_id: int, reference: text, from_state: text, to_state: text, duplicate_of: { type: ['integer', 'null'] }, actor: nullableText },
    },
  },
  {
    type: OCCURRENCE_MESSAGE_SENT,
    description: 'A template was applied to an occurrence: the message is on its timeline, to be delivered by a workflow; data has occurrence_id, reference, message_id, template_id, channel, recipient, subject, body',
    schema: {
      type: 'object', required: ['occurrence_id', 'reference', 'message_id', 'channel', 'subject', 'body'],
      properties: {
        occurrence_id: int, reference: text, message_id: int, template_id: { type: ['integer', 'null'] }, channel: text,
        recipient: nullableText, subject: text, body: text,
      },
    },
  },
];
