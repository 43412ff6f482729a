// The webhooks plugin's manifest options (joi: validated at boot, for the CLI
// too) and its one secret, WEBHOOK_SECRET, read from the environment here and
// nowhere else: a secret never goes through a manifest.
import Joi from 'joi';
import type { EnvironmentSecret } from 'agent-platform/sdk';

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

/** Secrets, read from the environment by secretsFrom and nowhere else. */
export const secrets: readonly EnvironmentSecret[] = [
  { variable: 'WEBHOOK_SECRET', description: 'Shared fallback secret of the event webhook receiver only (never of signed resume)' },
];

export function secretsFrom(env: Record<string, string | undefined>): { sharedSecret: string | undefined } {
  return { sharedSecret: env.WEBHOOK_SECRET || undefined };
}
