// The transforms plugin's manifest options (joi: validated at boot).
import Joi from 'joi';

export const optionsSchema = Joi.object({
  /** PIPELINES_TRANSFORM_STATEMENT_TIMEOUT_MS: statement_timeout of tenant SQL (describe and materialization). */
  statementTimeoutMs: Joi.number().integer().min(100).max(86_400_000).default(300_000)
    .description('`statement_timeout` of a transform run\'s and a pipeline step\'s SQL (a job: its describe and materialization); past it the run fails with `TRANSFORM_STATEMENT_TIMEOUT` and writes nothing. Requests use `TENANT_SQL_INTERACTIVE_TIMEOUT_SECONDS`'),
  /** PIPELINES_TRANSFORM_MAX_ROWS: most rows one materialization may produce (more fails the run, nothing written). */
  maxRows: Joi.number().integer().min(1).max(1_000_000_000).default(10_000_000)
    .description('Most rows one transform materialization may produce; more fails it with `TRANSFORM_ROW_LIMIT` and writes nothing'),
  /** PIPELINES_TRANSFORM_RUN_TIMEOUT_SECONDS: a transform run job running longer is failed. */
  runTimeoutSeconds: Joi.number().integer().min(30).max(86_400).default(6 * 3600)
    .description('A queued transform run\'s job running longer is failed (and retried while attempts remain)'),
  /** PIPELINES_TRANSFORM_RUN_RETRY_LIMIT: retries of a run job whose worker died (heartbeat) or that expired. */
  runRetryLimit: Joi.number().integer().min(0).max(20).default(2)
    .description('Retries of a transform run job whose worker died (heartbeat) or that expired; the retry materializes again; out of attempts the run fails with `TRANSFORM_RUN_ABORTED`'),
  /** PIPELINES_SCHEDULE_GRACE_SECONDS: a transform schedule's timer later than this applies its missed-run policy. */
  scheduleGraceSeconds: Joi.number().integer().min(1).max(86_400).default(60)
    .description('A source (or pipeline) schedule\'s timer running later than this after its occurrence (the platform was down) applies the schedule\'s `missed_run_policy`'),
});

export interface TransformsOptions {
  statementTimeoutMs: number;
  maxRows: number;
  runTimeoutSeconds: number;
  runRetryLimit: number;
  scheduleGraceSeconds: number;
}
