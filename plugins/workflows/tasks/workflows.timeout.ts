// `workflows.timeout`: a WAIT step's deadline, a delayed job keyed
// `wf-timeout:<execution>:<step>` (removed when a signal resolves the wait).
// A timeout that fires after its wait was resolved (the job was already
// running when it was removed) finds the execution elsewhere and does nothing.
import type { FastTaskHandler } from 'agent-platform/sdk';
import type { Runner, TimeoutPayload } from '../execution/runner.ts';

export function timeoutTask(runner: Runner): FastTaskHandler {
  return async (payload: TimeoutPayload) => {
    await runner.runTimeout(payload);
  };
}
