// The pg-boss job of a queued transform run (schedule, pipeline, trigger,
// `wait: false`). Crash safety: a worker that dies stops heartbeating, so
// pg-boss fails the attempt once its heartbeat (10 s) is stale and retries it
// (PIPELINES_TRANSFORM_RUN_RETRY_LIMIT); the retry takes the run over and
// materializes again (services/runs.ts). A job out of attempts goes to its dead
// letter queue, whose task fails the run (pipelines-transforms.run.dead.ts).
import type { LongTaskHandler, LongTaskOptions } from 'agent-platform/sdk';
import type { TransformsOptions } from '../options.ts';
import { RUN_TASK, type RunService } from '../services/runs.ts';

export { RUN_TASK };

export interface RunJob {
  tenant_id: string;
  run_id: string;
}

const HEARTBEAT_SECONDS = 10;

export const runTaskOptions = (options: TransformsOptions): LongTaskOptions => ({
  retryLimit: options.runRetryLimit, retryDelaySeconds: 1, retryBackoff: false, expireInSeconds: options.runTimeoutSeconds, heartbeatSeconds: HEARTBEAT_SECONDS,
});

export const runTask = (runs: RunService, options: TransformsOptions): LongTaskHandler => async (data: RunJob, job) => {
  await runs.execute(data.tenant_id, data.run_id, job.signal, { attempt: job.attempt, lastAttempt: job.attempt >= options.runRetryLimit + 1 });
};
