// The sources plugin's manifest options (joi: validated at boot, for the CLI too).
import Joi from 'joi';

export const optionsSchema = Joi.object({
  /** SOURCE_CREDENTIAL_MODE: `vault` (sealed credential store) or `legacy_inline` (sealed values inside source_config). */
  credentialMode: Joi.string().valid('vault', 'legacy_inline').default('vault'),
  /** PIPELINES_ALLOW_PRIVATE_NETWORKS: sources may reach loopback and private addresses. */
  allowPrivateNetworks: Joi.boolean().default(false),
  /** PIPELINES_SYNC_RETRY_LIMIT: retries of a sync attempt that failed or whose worker died. */
  syncRetryLimit: Joi.number().integer().min(0).max(20).default(2),
  /** PIPELINES_SYNC_TIMEOUT_SECONDS: an attempt running longer is failed (and retried). */
  syncTimeoutSeconds: Joi.number().integer().min(30).max(86_400).default(6 * 3600),
  /** PIPELINES_SCHEDULE_GRACE_SECONDS: a schedule's timer later than this after its occurrence is late (missed-run policy applies). */
  scheduleGraceSeconds: Joi.number().integer().min(1).max(86_400).default(60),
  /** PIPELINES_MAX_UPLOAD_BYTES: largest file uploaded for the csv pattern (413 past it); the bytes are kept in PostgreSQL. */
  maxUploadBytes: Joi.number().integer().min(1).max(1024 ** 3).default(50 * 1024 ** 2),
});

export interface SourcesOptions {
  credentialMode: 'vault' | 'legacy_inline';
  allowPrivateNetworks: boolean;
  syncRetryLimit: number;
  syncTimeoutSeconds: number;
  scheduleGraceSeconds: number;
  maxUploadBytes: number;
}
