// The workflows plugin's graphile-worker tasks and job keys.
export const START_TASK = 'workflows.start';
export const STEP_TASK = 'workflows.step';
export const TIMEOUT_TASK = 'workflows.timeout';

/**
 * An ACTION's job, one per visit of the step (`seq`, the execution's
 * step_seq): removed when the execution is cancelled before the job runs.
 */
export const stepKey = (executionId: string, seq: number) => `wf-step:${executionId}:${seq}`;

/** A WAIT's deadline job: replaced when the wait is re-armed, removed when a signal resolves it. */
export const timeoutKey = (executionId: string, stepId: string) => `wf-timeout:${executionId}:${stepId}`;
