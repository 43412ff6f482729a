// Queuing a sync run: the run row and its pg-boss job in the caller's tenant
// transaction (both exist, or neither), one live run per source, and never a
// run with no enabled stream to read.
import { conflict, type TenantTransaction } from 'agent-platform/sdk';
import type { SourcesContext } from '../services/context.ts';
import { runsStore, type RunRow } from '../store/runs.ts';
import { streamsStore } from '../store/streams.ts';
import type { RunStatus } from '../store/tables.ts';
import { NO_ENABLED_STREAMS, noEnabledStreamsMessage } from './no-streams.ts';
import { SYNC_TASK } from './runner.ts';

export const isLive = (status: RunStatus) => status === 'queued' || status === 'running';

export interface StartRun {
  streams?: string[];
  trigger: 'manual' | 'schedule';
  createdBy: string | null;
}

/** Whether a run of the source would read at least one stream: an enabled one (among those named, when named). */
export async function hasStreamsToSync(trx: TenantTransaction, sourceId: string, streams?: string[]): Promise<boolean> {
  return (await streamsStore.list(trx, sourceId)).some((stream) => stream.enabled && (!streams || streams.includes(stream.name)));
}

/**
 * Queues a run of the source (locked by the caller): 409 SYNC_IN_PROGRESS while one is queued or running,
 * 409 NO_ENABLED_STREAMS when no enabled stream would be read (nothing is queued).
 */
export async function startRun(context: SourcesContext, trx: TenantTransaction, tenantId: string, sourceId: string, input: StartRun): Promise<RunRow> {
  const live = await runsStore.latest(trx, sourceId);
  if (live && isLive(live.status)) throw conflict(`A sync of this source is already ${live.status} (run ${live.id})`, 'SYNC_IN_PROGRESS');
  if (!(await hasStreamsToSync(trx, sourceId, input.streams))) throw conflict(noEnabledStreamsMessage(input.streams), NO_ENABLED_STREAMS);
  const run = await runsStore.insert(trx, {
    tenant_id: tenantId, source_id: sourceId, trigger: input.trigger, requested_streams: input.streams ?? null, created_by: input.createdBy,
  });
  const workflowId = await context.core.jobs.enqueueLong(SYNC_TASK, { tenant_id: tenantId, run_id: run.id }, { trx, group: tenantId });
  await runsStore.setWorkflow(trx, run.id, workflowId!);
  return { ...run, workflow_id: workflowId };
}
