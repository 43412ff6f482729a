// The pipelines plugin's manifest options (joi: validated at boot).
import Joi from 'joi';

export const optionsSchema = Joi.object({
  /** PIPELINES_SANDBOX_MAX_ROWS: rows each sandbox step materializes at most. */
  sandboxMaxRows: Joi.number().integer().min(1).max(1_000_000).default(1000)
    .description('Rows each step of a pipeline sandbox run materializes at most (into the `sandbox` namespace)'),
  /** PIPELINES_STEP_TIMEOUT_SECONDS: a step's SQL statement timeout and its job's expiry. */
  stepTimeoutSeconds: Joi.number().integer().min(1).max(86_400).default(3600)
    .description('A pipeline step\'s SQL statement timeout (its job expires a minute later)'),
  /** PIPELINES_STEP_RETRY_LIMIT: retries of a step job whose worker died (a SQL error is a failed step, not retried). */
  stepRetryLimit: Joi.number().integer().min(0).max(20).default(2)
    .description('Retries of a pipeline step job whose worker died (a SQL error fails the step, it is not retried)'),
  /** PIPELINES_SENSOR_INTERVAL_SECONDS: how often the snapshot sensor reads new dataset.snapshot_created events. */
  sensorIntervalSeconds: Joi.number().integer().min(1).max(3600).default(15)
    .description('How often the snapshot sensor of a tenant with active sensored pipelines reads new `dataset.snapshot_created` events'),
  /** PIPELINES_SCHEDULE_GRACE_SECONDS: a schedule timer later than this after its occurrence is late (one catch-up run). */
  scheduleGraceSeconds: Joi.number().integer().min(1).max(86_400).default(60)
    .description('A source (or pipeline) schedule\'s timer running later than this after its occurrence (the platform was down) applies the schedule\'s `missed_run_policy`'),
  /** PIPELINES_WAIT_MAX_SECONDS: longest long-poll of POST /temporal/workflows/{id}/wait. */
  waitMaxSeconds: Joi.number().integer().min(1).max(600).default(60)
    .description('Longest long-poll of `POST /api/v1/temporal/workflows/{id}/wait` (a longer `timeout_seconds` is clamped)'),
});

export interface PipelinesOptions {
  sandboxMaxRows: number;
  stepTimeoutSeconds: number;
  stepRetryLimit: number;
  sensorIntervalSeconds: number;
  scheduleGraceSeconds: number;
  waitMaxSeconds: number;
}
