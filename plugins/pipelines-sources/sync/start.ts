// Queuing a sync run: the run row and its pg-boss job in the caller's tenant
// transaction (both exist, or neither), one live run per source.
import { conflict, type TenantTransaction } from 'agent-platform/sdk';
import type { SourcesContext } from '../services/context.ts';
import { runsStore, type RunRow } from '../store/runs.ts';
import type { RunStatus } from '../store/tables.ts';
import { SYNC_TASK } from './runner.ts';

export const isLive = (status: RunStatus) => status === 'queued' || status === 'running';

export interface StartRun {
  streams?: string[];
  trigger: 'manual' | 'schedule';
  createdBy: string | null;
}

/** Queues a run of the source (locked by the caller): 409 SYNC_IN_PROGRESS while one is queued or running. */
export async function startRun(context: SourcesContext, trx: TenantTransaction, tenantId: string, sourceId: string, input: StartRun): Promise<RunRow> {
  const live = await runsStore.latest(trx, sourceId);
  if (live && isLive(live.status)) throw conflict(`A sync of this source is already ${live.status} (run ${live.id})`, 'SYNC_IN_PROGRESS');
  const run = await runsStore.insert(trx, {
    tenant_id: tenantId, source_id: sourceId, trigger: input.trigger, requested_streams: input.streams ?? null, created_by: input.createdBy,
  });
  const workflowId = await context.core.jobs.enqueueLong(SYNC_TASK, { tenant_id: tenantId, run_id: run.id }, { trx, group: tenantId });
  await runsStore.setWorkflow(trx, run.id, workflowId!);
  return { ...run, workflow_id: workflowId };
}
