// The event types the mail plugin emits (built-in types of the platform, registered here).
import type { EventTypeDefinition } from 'agent-platform/sdk';

export const MAIL_SENT = 'mail.sent';
export const MAIL_DEAD = 'mail.dead';
/** The `source` of the events this plugin emits. */
export const EVENT_SOURCE = '/mail';

const messageData = {
  message_id: { type: 'integer' },
  origin: { type: 'string' },
  origin_id: { type: 'string' },
  attempts: { type: 'integer' },
};

export const EVENT_TYPES: EventTypeDefinition[] = [
  {
    type: MAIL_SENT,
    description: 'An e-mail of the outbox is accepted by the SMTP server; data has message_id, origin, origin_id, attempts',
    schema: { type: 'object', required: ['message_id', 'origin', 'origin_id'], properties: messageData },
  },
  {
    type: MAIL_DEAD,
    description: 'An e-mail of the outbox failed its last delivery attempt and is dead until an operator retries it; data has message_id, origin, origin_id, attempts, last_error',
    schema: { type: 'object', required: ['message_id', 'origin', 'origin_id'], properties: { ...messageData, last_error: { type: 'string' } } },
  },
];
