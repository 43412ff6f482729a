// Sync triggers and run reads. The trigger persists the run
// with the effective spec it attempts and its fingerprint, and queues the
// pg-boss job in the same transaction; the worker (sync/runner.ts) decides
// skip or replay against what the backing dataset last applied.
import { badRequest, type KeysetPage, notFound, type TenantTransaction } from 'agent-platform/sdk';
import type { OntologyContext } from './context.ts';
import { actorOf, type OntologyCaller } from '../authorization/policy.ts';
import type { BackingDatasetService } from './backing-datasets.ts';
import { runsStore } from '../store/runs.ts';
import { SYNC_TASK } from '../tasks/ontology.sync.ts';
import { exactRun, runSummary } from '../sync/view.ts';

export function createSyncService(context: OntologyContext, backing: BackingDatasetService) {
  const { core } = context;

  async function loadRun(trx: TenantTransaction, backingDatasetId: string, runId: string) {
    const run = await runsStore.get(trx, runId);
    if (!run || run.backing_dataset_id !== backingDatasetId) throw notFound(`Sync run not found: ${runId}`, 'SYNC_RUN_NOT_FOUND');
    return run;
  }

  return {
    capabilities: () => ({ sync_contract_version: 2, supports_exact_run_polling: true, supports_force_replay: true }),

    /** Queues a sync: the persisted run id, the attempted fingerprint, force (and force_replay: true when a force was asked). */
    trigger: (caller: OntologyCaller, backingDatasetId: string, force: boolean) => core.withTenant(caller.tenantId, async (trx) => {
      const row = await backing.load(trx, backingDatasetId, true);
      const { spec, fingerprint, dataset } = await backing.effective(caller.tenantId, trx, row);
      if (dataset.latestSnapshotId === null) throw badRequest(`Dataset ${row.dataset_id} has no snapshot yet: nothing to sync`, 'DATASET_EMPTY');
      const run = await runsStore.insert(trx, {
        tenant_id: caller.tenantId, backing_dataset_id: row.id, force, effective_spec: spec, fingerprint, requested_by: actorOf(caller.principal),
      });
      await runsStore.log(trx, caller.tenantId, run.id, `queued by ${actorOf(caller.principal).sub}${force ? ' (force)' : ''}; attempted fingerprint ${fingerprint}`);
      const workflowId = await core.jobs.enqueueLong(SYNC_TASK, { tenant_id: caller.tenantId, run_id: run.id }, { trx, group: caller.tenantId });
      await runsStore.setWorkflow(trx, run.id, workflowId!);
      return runSummary({ ...run, workflow_id: workflowId });
    }),

    async history(tenantId: string, backingDatasetId: string, page: { before?: string; limit: number }) {
      return core.withTenant(tenantId, async (trx) => {
        await backing.load(trx, backingDatasetId);
        const rows = await runsStore.list(trx, backingDatasetId, page.before, page.limit + 1);
        return { items: rows.slice(0, page.limit).map(runSummary), next_cursor: rows.length > page.limit ? rows[page.limit - 1]!.id : null };
      });
    },

    run: (tenantId: string, backingDatasetId: string, runId: string) =>
      core.withTenant(tenantId, async (trx) => exactRun(await loadRun(trx, backingDatasetId, runId))),

    logs: (tenantId: string, backingDatasetId: string, runId: string) => core.withTenant(tenantId, async (trx) => {
      await loadRun(trx, backingDatasetId, runId);
      return { items: await runsStore.logs(trx, runId) };
    }),

    /** A keyset page of a backing dataset's runs for GraphQL (newest first; see runsStore.page). */
    page: (tenantId: string, backingDatasetId: string, page: KeysetPage<string>) =>
      core.withTenant(tenantId, async (trx) => (await runsStore.page(trx, backingDatasetId, page)).map(exactRun)),

    /** How many runs a backing dataset has. */
    count: (tenantId: string, backingDatasetId: string) => core.withTenant(tenantId, (trx) => runsStore.count(trx, backingDatasetId)),
  };
}

export type SyncService = ReturnType<typeof createSyncService>;
