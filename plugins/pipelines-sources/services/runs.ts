// Syncs and discoveries as the API sees them: starting one (a row and its
// pg-boss job in one transaction), and reading runs, their streams, logs,
// statistics and the snapshot refs they made.
import { type KeysetPage, notFound, type TenantTransaction } from 'agent-platform/sdk';
import type { SourcesContext } from './context.ts';
import type { SourceService } from './sources.ts';
import { discoveriesStore, logsStore, runStreamsStore, runsStore, type RunFilter, type RunRow, type RunStreamRow } from '../store/runs.ts';
import { DISCOVER_TASK } from '../sync/discovery.ts';
import { isLive, startRun, type StartRun } from '../sync/start.ts';
import type { RunStatus } from '../store/tables.ts';

export function viewRun(run: RunRow) {
  return { ...run, sync_run_id: run.id, is_terminal: !isLive(run.status) };
}

export function viewRunStream(row: RunStreamRow) {
  return { ...row, snapshot_id_exact: row.snapshot_id };
}

export function createRunService(context: SourcesContext, sources: SourceService) {
  const { core } = context;

  async function findRun(trx: TenantTransaction, runId: string): Promise<RunRow> {
    const run = await runsStore.find(trx, runId);
    if (!run) throw notFound(`No sync run "${runId}"`, 'SYNC_RUN_NOT_FOUND');
    return run;
  }

  return {
    findRun,

    /** Queues a run of the source (its enabled streams, or those named): 409 while one is queued or running. */
    start: (tenantId: string, sourceId: string, input: StartRun) => core.withTenant(tenantId, async (trx) => {
      await sources.find(trx, sourceId, true);
      return viewRun(await startRun(context, trx, tenantId, sourceId, input));
    }),

    /** A keyset page of runs, newest first, of one source or all (GraphQL; see runsStore.page). */
    page: (tenantId: string, filter: RunFilter, page: KeysetPage<string>) =>
      core.withTenant(tenantId, async (trx) => (await runsStore.page(trx, filter, page)).map(viewRun)),

    count: (tenantId: string, filter: RunFilter) => core.withTenant(tenantId, (trx) => runsStore.count(trx, filter)),

    /** The streams of each of these runs, in their order (GraphQL batches a page's). */
    streamsOfMany: (tenantId: string, runIds: readonly string[]) => core.withTenant(tenantId, async (trx) => {
      const rows = await runStreamsStore.listMany(trx, [...new Set(runIds)]);
      return runIds.map((id) => rows.filter((row) => row.run_id === id).map(viewRunStream));
    }),

    get: (tenantId: string, runId: string) => core.withTenant(tenantId, async (trx) => {
      const run = await runsStore.find(trx, runId);
      return run ? { ...viewRun(run), streams: (await runStreamsStore.list(trx, run.id)).map(viewRunStream) } : null;
    }),

    streamsOf: (tenantId: string, runId: string) => core.withTenant(tenantId, async (trx) => (await runStreamsStore.list(trx, runId)).map(viewRunStream)),

    status: (tenantId: string, sourceId: string) => core.withTenant(tenantId, async (trx) => {
      const source = await sources.find(trx, sourceId);
      const run = await runsStore.latest(trx, sourceId);
      return {
        source_id: sourceId, source_state: source.state, running: run ? isLive(run.status) : false,
        run: run ? { ...viewRun(run), streams: (await runStreamsStore.list(trx, run.id)).map(viewRunStream) } : null,
      };
    }),

    history: (tenantId: string, sourceId: string, page: { limit: number; offset: number; status?: RunStatus }) => core.withTenant(tenantId, async (trx) => {
      await sources.find(trx, sourceId);
      return { items: (await runsStore.history(trx, sourceId, page)).map(viewRun), limit: page.limit, offset: page.offset };
    }),

    stats: (tenantId: string, sourceId: string) => core.withTenant(tenantId, async (trx) => {
      await sources.find(trx, sourceId);
      return { source_id: sourceId, ...(await runsStore.stats(trx, sourceId)) };
    }),

    logs: (tenantId: string, sourceId: string, runId: string, page: { after: number; limit: number }) => core.withTenant(tenantId, async (trx) => {
      const run = await findRun(trx, runId);
      if (run.source_id !== sourceId) throw notFound(`No sync run "${runId}" of this source`, 'SYNC_RUN_NOT_FOUND');
      const items = await logsStore.list(trx, runId, page);
      return { run_id: runId, items, next_after: items.length ? items[items.length - 1]!.id : page.after };
    }),

    runStreams: (tenantId: string, runId: string) => core.withTenant(tenantId, async (trx) => {
      await findRun(trx, runId);
      return { sync_run_id: runId, items: (await runStreamsStore.list(trx, runId)).map(viewRunStream) };
    }),

    details: (tenantId: string, workflowId: string) => core.withTenant(tenantId, async (trx) => {
      const run = await runsStore.findByWorkflow(trx, workflowId);
      if (!run) throw notFound(`No sync run with workflow "${workflowId}"`, 'SYNC_RUN_NOT_FOUND');
      return { ...viewRun(run), streams: (await runStreamsStore.list(trx, run.id)).map(viewRunStream) };
    }),

    /** Per stream, the dataset and the snapshot its last successful sync made (the deprecated name "iceberg refs" kept). */
    refs: (tenantId: string, sourceId: string) => core.withTenant(tenantId, async (trx) => {
      await sources.find(trx, sourceId);
      const refs = await runStreamsStore.latestRefs(trx, sourceId);
      return { source_id: sourceId, items: refs.map((ref) => ({ ...ref, table: ref.destination, snapshot_id_exact: ref.snapshot_id })) };
    }),

    discover: (tenantId: string, sourceId: string, apply: boolean) => core.withTenant(tenantId, async (trx) => {
      await sources.find(trx, sourceId);
      const { workflow_id } = await discoveriesStore.insert(trx, { tenant_id: tenantId, source_id: sourceId, apply });
      await core.jobs.enqueueLong(DISCOVER_TASK, { tenant_id: tenantId, workflow_id }, { trx, group: tenantId });
      return { workflow_id, status: 'queued' };
    }),

    discoveryStatus: (tenantId: string, workflowId: string) => core.withTenant(tenantId, async (trx) => {
      const found = await discoveriesStore.find(trx, workflowId);
      if (!found) throw notFound(`No discovery "${workflowId}"`, 'DISCOVERY_NOT_FOUND');
      const { tenant_id: _tenant, ...view } = found;
      return view;
    }),
  };
}

export type RunService = ReturnType<typeof createRunService>;
