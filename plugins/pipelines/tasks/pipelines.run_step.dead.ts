// The dead letter of the step job: pg-boss sends a step job here once it is
// out of attempts (each one's worker died or expired). The step it leaves
// pending or running fails with STEP_ABORTED, its dependents are skipped and
// the run ends as for any failed step (a settled step is left as it is).
import type { LongTaskHandler, LongTaskOptions } from 'agent-platform/sdk';
import { STEP_TASK, type StepJob } from '../runner/step-job.ts';

export const STEP_DEAD_TASK = `${STEP_TASK}.dead`;

export const stepDeadTaskOptions: LongTaskOptions = { retryLimit: 5, retryDelaySeconds: 5, expireInSeconds: 300 };

export const stepDeadTask = (abandonStep: (job: StepJob) => Promise<void>): LongTaskHandler => async (data: StepJob) => {
  await abandonStep(data);
};
