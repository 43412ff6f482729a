// The webhooks plugin's manifest options (joi: validated at boot, for the CLI too).
import Joi from 'joi';

export const optionsSchema = Joi.object({
  /** Accepted signed-resume requests per minute per tenant (default 60). */
  rateLimitPerMinute: Joi.number().integer().min(1).default(60),
  /** Signed resume: an accepted signature is refused again for the 5-minute freshness window plus this many hours. */
  signatureRetentionHours: Joi.number().integer().min(24).default(24),
});

export interface WebhooksOptions {
  rateLimitPerMinute: number;
  signatureRetentionHours: number;
}
