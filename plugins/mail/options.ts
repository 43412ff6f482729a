// The mail plugin's manifest options (manifests/default.yaml feeds them from
// MAIL_* settings) and its one secret, SMTP_URL, read from the environment
// here and nowhere else: it carries the SMTP password.
import { Joi, type EnvironmentSecret } from 'agent-platform/sdk';

export interface MailOptions {
  /** The From of every message (MAIL_FROM). */
  from: string;
  /** Attempts of one message before it is dead (MAIL_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** Wait before the second attempt, doubled for each next one (MAIL_RETRY_BASE_SECONDS). */
  retryBaseSeconds: number;
  /** The longest wait between two attempts (MAIL_RETRY_MAX_SECONDS). */
  retryMaxSeconds: number;
  /** SMTP connection, greeting and socket inactivity timeout (MAIL_SMTP_TIMEOUT_SECONDS). */
  smtpTimeoutSeconds: number;
}

export const optionsSchema = Joi.object({
  from: Joi.string().trim().min(3).max(320).pattern(/^[^\r\n\u0000]+$/).default('Agent Platform <noreply@localhost>')
    .description('The `From` of every e-mail the platform sends (an address, or `Name <address>`)'),
  maxAttempts: Joi.number().integer().min(1).max(50).default(6)
    .description('Delivery attempts of one e-mail before it is `dead` (kept in the outbox until an operator retries it)'),
  retryBaseSeconds: Joi.number().integer().min(1).max(86_400).default(30)
    .description('Wait before an e-mail\'s second delivery attempt, doubled for each next one (exponential backoff)'),
  retryMaxSeconds: Joi.number().integer().min(1).max(604_800).default(3600)
    .description('The longest wait between two delivery attempts of an e-mail'),
  smtpTimeoutSeconds: Joi.number().integer().min(1).max(600).default(30)
    .description('SMTP connection, greeting and socket inactivity timeout of one delivery attempt'),
}).default({});

export const secrets: readonly EnvironmentSecret[] = [
  {
    variable: 'SMTP_URL',
    description: 'The SMTP server e-mail is sent through: `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://user:pass@host:465` (TLS); unset, e-mail is kept `held` in the outbox',
  },
];

/** SMTP_URL from the environment (unset or empty: undefined). */
export function smtpUrlFrom(env: Record<string, string | undefined>): string | undefined {
  return env.SMTP_URL || undefined;
}
