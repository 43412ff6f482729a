// The compose-pipeline job (pg-boss: a model call may take a minute). It
// heartbeats: a worker that dies stops heartbeating and pg-boss retries the
// attempt (PIPELINES_AI_COMPOSE_RETRY_LIMIT), which takes the execution over
// and composes again; so does an attempt past its expiry. Out of attempts,
// the dead letter task fails the execution (pipelines-ai.compose.dead.ts).
import type { LongTaskHandler, LongTaskOptions } from 'agent-platform/sdk';
import type { AiOptions } from '../options.ts';
import type { ComposeJob, ComposeService } from '../services/compose.ts';

export const composeTaskOptions = (options: AiOptions): LongTaskOptions => ({
  retryLimit: options.composeRetryLimit, retryDelaySeconds: 1, retryBackoff: false, heartbeatSeconds: 10,
  // Two model round trips (the answer and one repair) with room to spare.
  expireInSeconds: Math.ceil((4 * options.modelTimeoutMs) / 1000) + 60,
});

export const composeTask = (compose: ComposeService, options: AiOptions): LongTaskHandler => (data: ComposeJob, job) =>
  compose.run(data, { attempt: job.attempt, lastAttempt: job.attempt >= options.composeRetryLimit + 1, signal: job.signal });
