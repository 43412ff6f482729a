// `workflows.step`: runs one ACTION step. The function is called outside any
// transaction (it may open its own or wait on the network), then its result
// is fed to the engine in a new locked transaction. A job whose step is no
// longer current (a duplicate, a late retry, a cancelled execution) does nothing.
//
// Retries: a function error is retried (with graphile-worker's back-off) while
// the job has attempts left under `actionAttempts` and the error is not the
// caller's fault (a 4xx: unknown function, invalid arguments, refused address);
// after that it fails the step, and the engine fails the execution.
//
// The function is called for the person the execution acts for
// (origin.acting_for: who started it, or the trigger's creator or last
// editor), with that person's roles in the tenant at this call: a person who
// lost the role, or left the tenant, fails the step (403, not retried). An
// execution that acts for nobody (started before its starter was recorded)
// calls as the system principal `system:workflows`.
import { systemPrincipal, type CoreServices, type FastTaskHandler, type Principal } from 'agent-platform/sdk';
import type { EngineInput } from '../../../workflows/engine/index.ts';
import { stepKey } from '../execution/job-names.ts';
import type { Runner, StepPayload } from '../execution/runner.ts';
import { executionsStore } from '../store/workflows.ts';

function errorMessage(err: unknown): string {
  const boom = err as { isBoom?: boolean; output?: { payload: { message?: string } }; message?: string };
  return (boom.isBoom ? boom.message || boom.output?.payload.message : boom.message) || String(err);
}

function permanent(err: unknown): boolean {
  const boom = err as { isBoom?: boolean; output?: { statusCode: number } };
  return Boolean(boom.isBoom && boom.output && boom.output.statusCode < 500);
}

const SYSTEM = systemPrincipal('workflows');

export function stepTask(core: CoreServices, runner: Runner, options: { actionAttempts: number }): FastTaskHandler {
  return async (payload: StepPayload, job) => {
    const { tenant_id: tenantId, execution_id: executionId, step_id: stepId } = payload;
    // The first run of the step's own job cannot be stale: the execution
    // stands on the step it was enqueued for until this job's result moves it
    // on, or a cancel, which removes the job unless it is already running
    // (then, like any call in flight, its result is ignored). A retry, a copy
    // or a job of an earlier pass is checked first, and does not even call the
    // function when the execution has moved on. (The check is a transaction:
    // three round trips of the dozen or so that one workflow step costs.)
    const ownFirstRun = job.attempt === 1 && job.jobKey === stepKey(executionId, payload.seq);
    if (!ownFirstRun) {
      const row = await core.withTenant(tenantId, (trx) => executionsStore.get(trx, executionId));
      if (!runner.onStep(row, payload, 'running')) return;
    }

    const logger = core.logger.child({ component: 'workflows', tenant_id: tenantId, execution_id: executionId, step_id: stepId });
    let input: EngineInput;
    try {
      const principal: Principal = payload.acting_for ? await core.functions.principalFor(tenantId, payload.acting_for) : SYSTEM;
      const output = await core.functions.call(payload.handler, payload.arguments, {
        tenantId,
        principal,
        withTenant: core.withTenant,
        logger,
        executionContext: { type: 'workflow_execution', id: executionId, step: { id: stepId, seq: payload.seq } },
      });
      // The output is stored in the execution's JSON state: keep only what JSON keeps.
      input = { kind: 'step_result', step_id: stepId, ok: true, output: JSON.parse(JSON.stringify(output ?? null)), now: Date.now() };
    } catch (err) {
      if (!permanent(err) && job.attempt < options.actionAttempts) {
        logger.warn({ err, attempt: job.attempt }, 'workflow step failed; retrying');
        throw err;
      }
      logger.info({ error: errorMessage(err), attempt: job.attempt }, 'workflow step failed');
      input = { kind: 'step_result', step_id: stepId, ok: false, error: errorMessage(err), now: Date.now() };
    }
    await runner.transition(tenantId, executionId, (locked) => (runner.onStep(locked, payload, 'running') ? input : undefined));
  };
}
