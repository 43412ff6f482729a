// How transforms get run: /materialize (the product path: a run, by its job,
// answered when it ends or at once), /execute (the low-level orchestrator callback: adopts or creates
// the run row for that orchestrator run id AND transform — grouped jobs share
// one run id across transforms, a row of another transform is never reused)
// and api.runTransform (schedules, pipelines).
import { conflict } from 'agent-platform/sdk';
import type { TransformsContext } from './context.ts';
import type { RunService } from './runs.ts';
import type { TransformService } from './transforms.ts';
import { runsStore } from '../store/runs.ts';

export interface RunRequest {
  parameters?: Record<string, unknown>;
  wait: boolean;
}

export function createExecutionService(context: TransformsContext, transforms: TransformService, runs: RunService) {
  const { core } = context;

  /**
   * The run task executes every run; `wait: true` answers the run when it
   * ends (its job's retries included), `wait: false` the queued run.
   */
  const outcome = async (tenantId: string, runId: string, wait: boolean) =>
    (wait ? runs.waitForEnd(tenantId, runId) : runs.get(tenantId, runId));

  return {
    async materialize(tenantId: string, transformId: string, request: RunRequest, createdBy: string | null) {
      const runId = await core.withTenant(tenantId, async (trx) => runs.queue(trx, tenantId, await transforms.find(trx, transformId), {
        trigger: 'materialize', parameters: request.parameters, createdBy,
      }));
      return outcome(tenantId, runId, request.wait);
    },

    async execute(tenantId: string, transformId: string, request: RunRequest & { orchestrator_run_id: string; pipeline_run_id?: string }, createdBy: string | null) {
      const { runId, adopted } = await core.withTenant(tenantId, async (trx) => {
        const transform = await transforms.find(trx, transformId);
        const existing = await runsStore.findByOrchestrator(trx, request.orchestrator_run_id, transformId);
        if (!existing) {
          return {
            adopted: false,
            runId: await runs.queue(trx, tenantId, transform, {
              trigger: 'execute', parameters: request.parameters, orchestratorRunId: request.orchestrator_run_id,
              pipelineRunId: request.pipeline_run_id, createdBy,
            }),
          };
        }
        if (existing.status === 'running') throw conflict(`Run ${existing.id} of this orchestrator run is still running`, 'TRANSFORM_RUN_IN_PROGRESS');
        // A retry of the orchestrator's job: the same row runs again.
        await runsStore.set(trx, existing.id, {
          status: 'queued', error: null, finished_at: null, started_at: null, cancel_requested: false, parameters: request.parameters ?? existing.parameters,
        });
        await runsStore.appendLog(trx, existing.id, { at: new Date().toISOString(), level: 'info', message: 'adopted by /execute (orchestrator retry)' });
        await runs.enqueueRun(trx, tenantId, existing.id);
        return { adopted: true, runId: existing.id };
      });
      return { ...(await outcome(tenantId, runId, request.wait)), adopted };
    },

    /** api.runTransform: a queued run (the run task executes it). */
    runTransform: (tenantId: string, transformId: string, trigger: { kind: 'manual' | 'schedule' | 'pipeline'; pipelineRunId?: string }) =>
      core.withTenant(tenantId, async (trx) => runs.queue(trx, tenantId, await transforms.find(trx, transformId), {
        trigger: trigger.kind, pipelineRunId: trigger.pipelineRunId ?? null, createdBy: null,
      })),
  };
}

export type ExecutionService = ReturnType<typeof createExecutionService>;
