// The dead letter of the compose-pipeline job: pg-boss sends a job here once
// it is out of attempts (each one's worker died or expired); the execution it
// left queued or running fails with COMPOSE_ABORTED (an ended one is kept).
import type { LongTaskHandler, LongTaskOptions } from 'agent-platform/sdk';
import { COMPOSE_TASK, type ComposeJob, type ComposeService } from '../services/compose.ts';

export const COMPOSE_DEAD_TASK = `${COMPOSE_TASK}.dead`;

export const composeDeadTaskOptions: LongTaskOptions = { retryLimit: 5, retryDelaySeconds: 5, expireInSeconds: 300 };

export const composeDeadTask = (compose: ComposeService): LongTaskHandler => async (data: ComposeJob) => {
  await compose.abandon(data);
};
