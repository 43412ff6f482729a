// Runs of pipelines: sandbox runs (the whole DAG of a version into the
// sandbox namespace), production runs (manual through /temporal, scheduled,
// sensor-driven), their status with per-step results, cancellation.
import { conflict, type KeysetPage, notFound, type TenantTransaction } from 'agent-platform/sdk';
import type { PipelinesContext } from './context.ts';
import { EVENT_SOURCE, RUN_FAILED } from '../event-types.ts';
import { runningSteps } from '../runner/step.ts';
import { startRun } from '../runner/start.ts';
import type { PipelineService } from './pipelines.ts';
import { pipelinesStore, versionsStore, type PipelineRow } from '../store/pipelines.ts';
import { runsStore } from '../store/runs.ts';
import type { RunKind, RunTrigger } from '../store/tables.ts';
import { runView } from '../views/view.ts';

export function createRunService(context: PipelinesContext, pipelines: PipelineService) {
  const { core } = context;

  async function startProduction(trx: TenantTransaction, tenantId: string, pipeline: PipelineRow, trigger: RunTrigger, detail: Record<string, unknown>, createdBy: string | null) {
    if (pipeline.state !== 'active' || !pipeline.active_version) throw conflict(`pipeline ${pipeline.name} is ${pipeline.state}, not active`, 'PIPELINE_NOT_ACTIVE');
    const version = await versionsStore.find(trx, pipeline.id, pipeline.active_version);
    return startRun(context, trx, tenantId, pipeline, version!, { kind: 'production', trigger, detail, createdBy });
  }

  /**
   * A schedule or the sensor: a run in progress makes a schedule occurrence a
   * no-op (false); the sensor's snapshots wait for its end (afterRun).
   */
  async function startUnlessBusy(trx: TenantTransaction, tenantId: string, pipeline: PipelineRow, trigger: RunTrigger, detail: Record<string, unknown>) {
    if (await runsStore.liveProduction(trx, pipeline.id)) {
      if (trigger === 'sensor') await pipelinesStore.addSensorPending(trx, pipeline.id, (detail.snapshots as unknown[] | undefined) ?? []);
      return false;
    }
    try {
      await startProduction(trx, tenantId, pipeline, trigger, detail, null);
      return true;
    } catch (error) {
      // An active version whose DAG broke since (a dataset dropped) must not stop the timers.
      core.logger.warn({ err: error, pipeline: pipeline.id }, 'pipeline run not started');
      return false;
    }
  }

  return {
    startSandbox: (tenantId: string, pipelineId: string, version: number | undefined, createdBy: string | null) => core.withTenant(tenantId, async (trx) => {
      const chosen = await pipelines.versionForSandbox(trx, tenantId, pipelineId, version, createdBy);
      const run = await startRun(context, trx, tenantId, chosen.pipeline, chosen.version, { kind: 'sandbox', trigger: 'manual', createdBy });
      return { workflow_id: run.id, pipeline_id: pipelineId, version: chosen.version.version, status: run.status };
    }),

    /** A production run now (POST /temporal/workflows/pipeline). */
    runNow: (tenantId: string, pipelineId: string, createdBy: string | null) => core.withTenant(tenantId, async (trx) => {
      const pipeline = await pipelinesStore.lock(trx, pipelineId);
      if (!pipeline) throw notFound(`pipeline ${pipelineId} not found`, 'PIPELINE_NOT_FOUND');
      return startProduction(trx, tenantId, pipeline, 'orchestrator', {}, createdBy);
    }),

    /** When a production run ends (in its settle transaction): snapshots the sensor saw meanwhile start one more run. */
    afterRun: async (trx: TenantTransaction, tenantId: string, pipelineId: string) => {
      const pending = await pipelinesStore.takeSensorPending(trx, pipelineId);
      if (!pending) return;
      const pipeline = await pipelinesStore.find(trx, pipelineId);
      if (pipeline?.state === 'active' && pipeline.sensor) await startUnlessBusy(trx, tenantId, pipeline, 'sensor', { ...pending, after_run: true });
    },

    startScheduled: (trx: TenantTransaction, tenantId: string, pipeline: PipelineRow, detail: Record<string, unknown>) => startUnlessBusy(trx, tenantId, pipeline, 'schedule', detail),
    startSensed: (trx: TenantTransaction, tenantId: string, pipeline: PipelineRow, detail: Record<string, unknown>) => startUnlessBusy(trx, tenantId, pipeline, 'sensor', detail),

    get: (tenantId: string, runId: string, filter: { pipelineId?: string; kind?: RunKind } = {}) => core.withTenant(tenantId, async (trx) => {
      const run = await runsStore.find(trx, runId);
      if (!run || (filter.pipelineId && run.pipeline_id !== filter.pipelineId) || (filter.kind && run.kind !== filter.kind)) {
        throw notFound(`run ${runId} not found`, 'RUN_NOT_FOUND');
      }
      return runView(run, await runsStore.steps(trx, run.id));
    }),

    /** The run, or null (the /temporal lookup tries the kinds of workflow in turn). */
    find: (tenantId: string, runId: string) => core.withTenant(tenantId, async (trx) => {
      const run = await runsStore.find(trx, runId);
      return run ? runView(run, await runsStore.steps(trx, run.id)) : null;
    }),

    list: (tenantId: string, filter: { pipelineId?: string; kind?: RunKind }, page: { limit: number; offset: number }) => core.withTenant(tenantId, async (trx) => {
      if (filter.pipelineId && !await pipelinesStore.find(trx, filter.pipelineId)) throw notFound(`pipeline ${filter.pipelineId} not found`, 'PIPELINE_NOT_FOUND');
      const runs = await runsStore.list(trx, filter, page);
      const steps = await runsStore.stepsOfRuns(trx, runs.map((run) => run.id));
      return {
        items: runs.map((run) => runView(run, steps.filter((step) => step.run_id === run.id))),
        total: await runsStore.count(trx, filter), ...page,
      };
    }),

    /** A keyset page of runs with their steps (GraphQL; see runsStore.page). */
    page: (tenantId: string, filter: { pipelineId?: string; kind?: RunKind }, page: KeysetPage<string>) => core.withTenant(tenantId, async (trx) => {
      const runs = await runsStore.page(trx, filter, page);
      const steps = await runsStore.stepsOfRuns(trx, runs.map((run) => run.id));
      return runs.map((run) => runView(run, steps.filter((step) => step.run_id === run.id)));
    }),

    count: (tenantId: string, filter: { pipelineId?: string; kind?: RunKind }) => core.withTenant(tenantId, (trx) => runsStore.count(trx, filter)),

    /**
     * Pending steps never start; a running step's statement is cancelled
     * wherever it runs (pg_cancel_backend of the pid recorded on its row, while
     * the backend carries its tag; in this process, its signal too) and the
     * step ends cancelled; one that lands before its pid is recorded stops then.
     */
    cancel: async (tenantId: string, runId: string) => {
      let backends: { backend_pid: number; session_tag: string }[] = [];
      const view = await core.withTenant(tenantId, async (trx) => {
        const run = await runsStore.lock(trx, runId);
        if (!run) throw notFound(`run ${runId} not found`, 'RUN_NOT_FOUND');
        if (run.status === 'running') {
          backends = await runsStore.runningBackends(trx, runId);
          await runsStore.settlePending(trx, runId, 'all', 'cancelled');
          await runsStore.finish(trx, runId, 'cancelled', 'cancelled on request');
          if (run.kind === 'production') {
            const pipeline = await pipelinesStore.find(trx, run.pipeline_id);
            await core.events.emit(trx, tenantId, {
              type: RUN_FAILED, source: EVENT_SOURCE,
              data: { pipeline_id: run.pipeline_id, pipeline_name: pipeline?.name ?? '', run_id: run.id, version: run.version, trigger: run.trigger, status: 'cancelled', error: 'cancelled on request' },
            });
          }
        }
        return runView((await runsStore.find(trx, runId))!, await runsStore.steps(trx, runId));
      });
      for (const controller of runningSteps.get(runId) ?? []) controller.abort();
      for (const backend of backends) await runsStore.cancelStatement(core.db, backend.backend_pid, backend.session_tag);
      return view;
    },
  };
}

export type RunService = ReturnType<typeof createRunService>;
