// The dead letter of the run job: pg-boss sends a run job here once it is
// out of attempts (each one's worker died or expired). The run it leaves
// queued or running fails with TRANSFORM_RUN_ABORTED (an ended run is left as
// it is: a run never ends twice).
import type { LongTaskHandler, LongTaskOptions } from 'agent-platform/sdk';
import { RUN_TASK, type RunService } from '../services/runs.ts';
import type { RunJob } from './pipelines-transforms.run.ts';

export const RUN_DEAD_TASK = `${RUN_TASK}.dead`;

export const runDeadTaskOptions: LongTaskOptions = { retryLimit: 5, retryDelaySeconds: 5, expireInSeconds: 300 };

export const runDeadTask = (runs: RunService): LongTaskHandler => async (data: RunJob) => {
  await runs.abandon(data.tenant_id, data.run_id);
};
