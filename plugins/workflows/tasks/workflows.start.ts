// `workflows.start`: runs an execution's first steps (up to its first action
// or wait). A signal or a cancel that reached the execution first has started
// it already; then this job does nothing.
import type { FastTaskHandler } from 'agent-platform/sdk';
import type { Runner } from '../execution/runner.ts';

export function startTask(runner: Runner): FastTaskHandler {
  return async (payload: { tenant_id: string; execution_id: string }) => {
    await runner.runStart(payload);
  };
}
