// The job of one step of one run (pg-boss, task pipelines.run_step).
export const STEP_TASK = 'pipelines.run_step';

export interface StepJob {
  tenant_id: string;
  run_id: string;
  step_id: string;
}
