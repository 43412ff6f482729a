// joi schemas of the outbox routes (and so of the OpenAPI document).
import { Joi } from 'agent-platform/sdk';

import { STATES } from './outbox/states.ts';

export { STATES };

export const idParam = Joi.object({ id: Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER).required() });

export const listQuery = Joi.object({
  state: Joi.string().valid(...STATES).description('Only messages in this state'),
  origin: Joi.string().pattern(/^[a-z0-9-]+\.[a-z0-9_.-]+$/).max(100).description('Only messages of this origin (e.g. occurrences.message)'),
  skip: Joi.number().integer().min(0).max(1_000_000).default(0),
  limit: Joi.number().integer().min(1).max(500).default(50),
});

export const message = Joi.object({
  id: Joi.number().integer(),
  recipient: Joi.string(),
  subject: Joi.string().allow(''),
  state: Joi.string().valid(...STATES),
  attempts: Joi.number().integer(),
  last_error: Joi.string().allow(null).description('The last failed attempt\'s SMTP error (never the transport\'s credentials)'),
  next_attempt_at: Joi.date().allow(null).description('When the next attempt is due (for sending: when its claim runs out)'),
  sent_at: Joi.date().allow(null),
  origin: Joi.string(),
  origin_id: Joi.string(),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).label('OutboxMessage');

export const messageList = Joi.object({
  items: Joi.array().items(message), total: Joi.number().integer(), skip: Joi.number().integer(), limit: Joi.number().integer(),
  configured: Joi.boolean().description('Whether an SMTP transport is configured (without one, new messages are held)'),
}).label('OutboxMessageList');
