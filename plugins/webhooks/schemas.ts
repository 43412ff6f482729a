// joi schemas of the webhooks routes (and so of the OpenAPI document), and the
// signed-resume body, which the service validates itself (it parses raw bytes).
import Joi from 'joi';
import { isValidTenantAlias } from 'agent-platform/sdk';

export const tenantAlias = Joi.string()
  .custom((value: string, helpers) => (isValidTenantAlias(value) ? value : helpers.error('string.alias')))
  .messages({ 'string.alias': '{{#label}} must be a tenant alias: up to 64 lowercase letters, digits and hyphens, or a UUID' });

/** `signing-secret` would be shadowed by /api/admin/webhooks/signing-secret, so it is not a webhook name. */
export const webhookName = Joi.string()
  .pattern(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/)
  .invalid('signing-secret')
  .messages({
    'string.pattern.base': '{{#label}} must be 1 to 100 letters, digits, "_", "." or "-", starting with a letter or digit',
    'any.invalid': '{{#label}} "signing-secret" is reserved',
  });

export const eventType = Joi.string().min(1).max(200).pattern(/^[A-Za-z0-9_.:-]+$/)
  .messages({ 'string.pattern.base': '{{#label}} may hold letters, digits and "_", ".", ":", "-"' });

export const nameParams = Joi.object({ name: webhookName.required() });
export const receiverParams = Joi.object({ tenant_id: tenantAlias.required(), webhook_name: webhookName.required() });
export const resumeParams = Joi.object({ event_type: eventType.required() });

export const createWebhook = Joi.object({
  name: webhookName.required(),
  description: Joi.string().allow('').max(2000).default(''),
}).label('CreateWebhook');

export const webhook = Joi.object({
  name: Joi.string(),
  description: Joi.string().allow(''),
  created_at: Joi.date(),
  rotated_at: Joi.date().allow(null),
}).label('Webhook');

export const webhookWithSecret = Joi.object({
  webhook,
  secret: Joi.string().description('64 hex characters; shown only in this response'),
}).label('WebhookWithSecret');

export const webhookList = Joi.object({ items: Joi.array().items(webhook), total: Joi.number().integer() }).label('WebhookList');

export const signingSecret = Joi.object({
  secret: Joi.string().description('64 hex characters; shown only in this response'),
  created_at: Joi.date(),
  rotated_at: Joi.date().allow(null),
}).label('SigningSecret');

export const signingSecretStatus = Joi.object({
  configured: Joi.boolean(),
  created_at: Joi.date().allow(null),
  rotated_at: Joi.date().allow(null),
}).label('SigningSecretStatus');

export const received = Joi.object({
  status: Joi.string().valid('accepted'),
  event_id: Joi.string(),
}).label('WebhookReceived');

export const delivered = Joi.object({
  status: Joi.string().valid('delivered'),
  workflow_id: Joi.string(),
}).label('SignalDelivered');

/** Unknown fields are refused, like every request body of the platform. */
export const resumeBody = Joi.object({
  tenant_id: tenantAlias.required(),
  workflow_id: Joi.string().min(1).max(200).required(),
  event_data: Joi.object().unknown(true).default({}),
});
