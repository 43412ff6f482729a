// The sources plugin's manifest options (joi: validated at boot, for the CLI
// too) and its secrets, PATTERN_ADMIN_SECRET and PATTERN_WEBHOOK_SECRET, read
// from the environment here and nowhere else: a secret never goes through a
// manifest.
import Joi from 'joi';
import type { EnvironmentSecret } from 'agent-platform/sdk';

export const optionsSchema = Joi.object({
  /** SOURCE_CREDENTIAL_MODE: `vault` (sealed credential store) or `legacy_inline` (sealed values inside source_config). */
  credentialMode: Joi.string().valid('vault', 'legacy_inline').default('vault')
    .description('`vault`: source credentials in a sealed store with metadata only; `legacy_inline`: sealed inside `source_config`, `/credentials` endpoints refused'),
  /** PIPELINES_ALLOW_PRIVATE_NETWORKS: sources may reach loopback and private addresses. */
  allowPrivateNetworks: Joi.boolean().default(false)
    .description('Sources may reach loopback and private addresses (a PostgreSQL on the same network)'),
  /** PIPELINES_SYNC_RETRY_LIMIT: retries of a sync attempt that failed or whose worker died. */
  syncRetryLimit: Joi.number().integer().min(0).max(20).default(2)
    .description('Retries of a sync attempt that failed or whose worker died (the retry redoes only the streams that did not commit)'),
  /** PIPELINES_SYNC_TIMEOUT_SECONDS: an attempt running longer is failed (and retried). */
  syncTimeoutSeconds: Joi.number().integer().min(30).max(86_400).default(6 * 3600)
    .description('A sync attempt running longer is failed (and retried)'),
  /** PIPELINES_SCHEDULE_GRACE_SECONDS: a schedule's timer later than this after its occurrence is late (missed-run policy applies). */
  scheduleGraceSeconds: Joi.number().integer().min(1).max(86_400).default(60)
    .description('A source (or pipeline) schedule\'s timer running later than this after its occurrence (the platform was down) applies the schedule\'s `missed_run_policy`'),
  /** PIPELINES_MAX_UPLOAD_BYTES: largest file uploaded for the csv pattern (413 past it); the bytes are kept in PostgreSQL. */
  maxUploadBytes: Joi.number().integer().min(1).max(1024 ** 3).default(50 * 1024 ** 2)
    .description('Largest file uploaded for the csv pattern (`POST /api/v1/sources/files`, kept in PostgreSQL); past it 413 `SOURCE_FILE_TOO_LARGE`'),
});

export interface SourcesOptions {
  credentialMode: 'vault' | 'legacy_inline';
  allowPrivateNetworks: boolean;
  syncRetryLimit: number;
  syncTimeoutSeconds: number;
  scheduleGraceSeconds: number;
  maxUploadBytes: number;
}

/** Secrets, read from the environment by secretsFrom and nowhere else. */
export const secrets: readonly EnvironmentSecret[] = [
  { variable: 'PATTERN_ADMIN_SECRET', description: 'Secret of `POST /api/v1/patterns/register` (header `X-Pattern-Admin-Secret`); unset, the endpoint answers 503' },
  {
    variable: 'PATTERN_WEBHOOK_SECRET',
    description: 'Key of `POST /api/v1/patterns/reconcile`, a Standard Webhooks message (`webhook-id`, `webhook-timestamp`, `webhook-signature` over `id.timestamp.body`; 5-minute window, each id accepted once); unset, 503',
  },
];

export function secretsFrom(env: Record<string, string | undefined>): { patternAdminSecret: string | undefined; patternWebhookSecret: string | undefined } {
  return { patternAdminSecret: env.PATTERN_ADMIN_SECRET || undefined, patternWebhookSecret: env.PATTERN_WEBHOOK_SECRET || undefined };
}
