// The transforms plugin's manifest options (joi: validated at boot).
import Joi from 'joi';

export const optionsSchema = Joi.object({
  /** PIPELINES_TRANSFORM_STATEMENT_TIMEOUT_MS: statement_timeout of tenant SQL (describe and materialization). */
  statementTimeoutMs: Joi.number().integer().min(100).max(86_400_000).default(300_000),
  /** PIPELINES_TRANSFORM_MAX_ROWS: most rows one materialization may produce (more fails the run, nothing written). */
  maxRows: Joi.number().integer().min(1).max(1_000_000_000).default(10_000_000),
  /** PIPELINES_TRANSFORM_RUN_TIMEOUT_SECONDS: a transform run job running longer is failed. */
  runTimeoutSeconds: Joi.number().integer().min(30).max(86_400).default(6 * 3600),
  /** PIPELINES_TRANSFORM_RUN_RETRY_LIMIT: retries of a run job whose worker died (heartbeat) or that expired. */
  runRetryLimit: Joi.number().integer().min(0).max(20).default(2),
  /** PIPELINES_SCHEDULE_GRACE_SECONDS: a transform schedule's timer later than this applies its missed-run policy. */
  scheduleGraceSeconds: Joi.number().integer().min(1).max(86_400).default(60),
});

export interface TransformsOptions {
  statementTimeoutMs: number;
  maxRows: number;
  runTimeoutSeconds: number;
  runRetryLimit: number;
  scheduleGraceSeconds: number;
}
