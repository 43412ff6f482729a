// Starting a run of a pipeline version: the run row, one row per step (with
// the steps it waits for and where it writes), and a pg-boss job for each
// step without dependencies, all in the caller's transaction. Sandbox runs
// write `sandbox.<tenant>.sbx_<pipeline>_<table>` instead of each output.
import { conflict, type TenantTransaction } from 'agent-platform/sdk';
import type { PipelinesContext } from '../services/context.ts';
import { validateDag } from '../dag/validate.ts';
import { EVENT_SOURCE, RUN_STARTED } from '../event-types.ts';
import { dagInvalid } from '../services/pipelines.ts';
import type { PipelineRow, VersionRow } from '../store/pipelines.ts';
import { runsStore, type RunRow } from '../store/runs.ts';
import type { RunKind, RunTrigger } from '../store/tables.ts';
import { STEP_TASK, type StepJob } from './step-job.ts';

/** The sandbox table standing for an output dataset: one per pipeline and output, replaced by each sandbox run. */
export function sandboxTable(pipelineId: string, outputDatasetId: string): string {
  const table = outputDatasetId.split('.').pop()!;
  return `sbx_${pipelineId.replace(/-/g, '').slice(0, 8)}_${table}`.slice(0, 63);
}

export interface StartRequest {
  kind: RunKind;
  trigger: RunTrigger;
  detail?: Record<string, unknown>;
  createdBy: string | null;
}

export async function enqueueStep(context: PipelinesContext, trx: TenantTransaction, job: StepJob): Promise<void> {
  await context.core.jobs.enqueueLong(STEP_TASK, { ...job }, { trx, singletonKey: `${job.run_id}:${job.step_id}`, group: job.tenant_id });
}

export async function startRun(context: PipelinesContext, trx: TenantTransaction, tenantId: string, pipeline: PipelineRow, version: VersionRow, request: StartRequest): Promise<RunRow> {
  const report = await validateDag(context, tenantId, version.steps, trx);
  if (!report.valid) throw dagInvalid(report);
  if (request.kind === 'production' && await runsStore.liveProduction(trx, pipeline.id)) {
    throw conflict(`pipeline ${pipeline.name} has a run in progress`, 'RUN_IN_PROGRESS');
  }
  const run = await runsStore.insert(trx, {
    tenant_id: tenantId, pipeline_id: pipeline.id, version: version.version, kind: request.kind, trigger: request.trigger,
    trigger_detail: request.detail ?? {}, created_by: request.createdBy,
  });
  const output = (datasetId: string) => request.kind === 'sandbox'
    ? context.lake().datasetIdFor('sandbox', tenantId, sandboxTable(pipeline.id, datasetId))
    : datasetId;
  await runsStore.insertSteps(trx, report.order.map((stepId, position) => ({
    tenant_id: tenantId, run_id: run.id, step_id: stepId, position, depends_on: report.dependsOn.get(stepId) ?? [],
    output_dataset: output(report.resolved.get(stepId)!.output),
  })));
  for (const stepId of report.order) {
    if (!(report.dependsOn.get(stepId) ?? []).length) await enqueueStep(context, trx, { tenant_id: tenantId, run_id: run.id, step_id: stepId });
  }
  if (request.kind === 'production') {
    await context.core.events.emit(trx, tenantId, {
      type: RUN_STARTED, source: EVENT_SOURCE,
      data: { pipeline_id: pipeline.id, pipeline_name: pipeline.name, run_id: run.id, version: version.version, trigger: request.trigger },
    });
  }
  return run;
}
