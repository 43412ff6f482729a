// The sync worker. Per run, in order:
// 1. the authorization policy again (the tenant's binding may have gone since the trigger);
// 2. decide, under the backing dataset's row lock: the lake's latest snapshot
//    and the attempted fingerprint equal to what the last success applied,
//    without force → `skipped` (rows_synced 0); otherwise a replay whose
//    reason is first_sync, force, effective_spec_changed (effective_spec_changed
//    true) or snapshot_changed;
// 3. in one transaction: the bulk jobs `upsert` (new and changed entities)
//    and `delete_stale` (entities of this backing dataset no longer in the
//    snapshot) as one statement over the lake's as-of SQL (one pass; each
//    job reports its own counts), the applied fingerprint and snapshot, the
//    run's end and its event.
// The statement is idempotent and its transaction all or nothing: a worker
// killed anywhere leaves the entities as they were, and the retry (pg-boss,
// once the heartbeat stops) ends with the same entities. A failure keeps the
// applied fingerprint.
import type { OntologyContext } from '../services/context.ts';
import { SYNC_COMPLETED, SYNC_FAILED, SYNC_SKIPPED } from '../event-types.ts';
import { backingDatasetsStore } from '../store/backing-datasets.ts';
import { entitiesStore } from '../store/entities.ts';
import { entityTypesStore } from '../store/entity-types.ts';
import { runsStore, type RunRow } from '../store/runs.ts';
import type { SyncJob } from '../tasks/ontology.sync.ts';
import { shapeOf } from './shape.ts';
import { TERMINAL } from './view.ts';

/** An error that another attempt would meet again: the run fails at once. */
class SyncRefused extends Error {}

const eventData = (run: RunRow, extra: Record<string, unknown>) => ({
  backing_dataset_id: run.backing_dataset_id, run_id: run.id, attempted_sync_spec_fingerprint: run.attempted_sync_spec_fingerprint, ...extra,
});

export function createSyncRunner(context: OntologyContext) {
  const { core } = context;

  async function fail(tenantId: string, runId: string, message: string): Promise<void> {
    await core.withTenant(tenantId, async (trx) => {
      const run = await runsStore.get(trx, runId, true);
      if (!run || TERMINAL.includes(run.status)) return;
      const backing = await backingDatasetsStore.get(trx, run.backing_dataset_id);
      await runsStore.finish(trx, runId, { status: 'failed', applied: backing?.applied_sync_spec_fingerprint ?? null, error: message });
      await runsStore.log(trx, tenantId, runId, `failed: ${message}`, 'error');
      await core.events.emit(trx, tenantId, { type: SYNC_FAILED, source: '/ontology', data: eventData(run, { error: message }) });
    });
  }

  /** Step 2: null when the run is over (skipped, or already terminal). */
  async function decide(tenantId: string, runId: string, attempt: number) {
    return core.withTenant(tenantId, async (trx) => {
      const run = await runsStore.get(trx, runId, true);
      if (!run || TERMINAL.includes(run.status)) return null;
      const backing = await backingDatasetsStore.get(trx, run.backing_dataset_id, true);
      if (!backing) throw new SyncRefused('the backing dataset was deleted');
      const dataset = await context.lake().readable(tenantId, run.effective_spec.dataset_id, trx);
      const snapshot = dataset.latestSnapshotId;
      if (snapshot === null) throw new SyncRefused(`dataset ${dataset.id} has no snapshot`);
      const applied = backing.applied_sync_spec_fingerprint;
      const specChanged = applied !== null && applied !== run.attempted_sync_spec_fingerprint;
      if (!run.force && snapshot === backing.applied_snapshot_id && !specChanged && applied !== null) {
        await runsStore.finish(trx, runId, { status: 'skipped', applied, snapshot_id: snapshot, effective_spec_changed: false });
        await runsStore.log(trx, tenantId, runId, `skipped: snapshot ${snapshot} and effective spec ${applied} already applied`);
        await core.events.emit(trx, tenantId, { type: SYNC_SKIPPED, source: '/ontology', data: eventData(run, { snapshot_id_exact: snapshot, rows_synced: 0 }) });
        return null;
      }
      const reason = run.force ? 'force' : applied === null ? 'first_sync' : specChanged ? 'effective_spec_changed' : 'snapshot_changed';
      await runsStore.start(trx, runId, { replay_reason: reason, effective_spec_changed: specChanged, snapshot_id: snapshot });
      await runsStore.log(trx, tenantId, runId, `attempt ${attempt}: replaying snapshot ${snapshot} (${reason})`);
      const type = await entityTypesStore.version(trx, run.effective_spec.entity_type.code, run.effective_spec.entity_type.version);
      if (!type) throw new SyncRefused(`entity type ${run.effective_spec.entity_type.code} version ${run.effective_spec.entity_type.version} no longer exists`);
      const required = new Set((type.properties.required ?? []) as string[]);
      return { run, dataset, snapshot, requiredColumns: run.effective_spec.mappings.filter((m) => required.has(m.property)).map((m) => m.column) };
    });
  }

  return async function runSync(job: SyncJob, attempt: number, retryLimit: number): Promise<void> {
    const { tenant_id: tenantId, run_id: runId } = job;
    try {
      context.policy.checkTenant(tenantId);
      const decided = await decide(tenantId, runId, attempt);
      if (!decided) return;
      const { run, dataset, snapshot, requiredColumns } = decided;
      if (run.effective_spec.key_normalization?.length && !context.identity()) throw new SyncRefused('the identity plugin is not loaded: the identity policy\'s key normalization cannot be applied');
      const shape = shapeOf(tenantId, run.backing_dataset_id, run.effective_spec, dataset, context.lake().asOf(dataset, snapshot), snapshot, context.identity()?.normalizeSql);
      await core.withTenant(tenantId, async (trx) => {
        const missing = await entitiesStore.missing(trx, shape.sourceSql, requiredColumns);
        if (missing > 0) throw new SyncRefused(`${missing} row(s) of snapshot ${snapshot} lack a value for a required property`);
        // The two bulk jobs are one statement (one pass over the snapshot); each reports its own counts.
        const { written, removed } = await entitiesStore.apply(trx, shape);
        await runsStore.addBulkJob(trx, runId, { job_id: `${runId}:upsert`, operation: 'upsert', submitted_count: dataset.rowCount, completed_count: dataset.rowCount }, written);
        await runsStore.log(trx, tenantId, runId, `upsert: ${dataset.rowCount} row(s) submitted, ${written} entit(y/ies) new or changed`);
        await runsStore.addBulkJob(trx, runId, { job_id: `${runId}:delete_stale`, operation: 'delete_stale', submitted_count: removed, completed_count: removed }, removed);
        await backingDatasetsStore.setApplied(trx, run.backing_dataset_id, run.attempted_sync_spec_fingerprint, snapshot);
        await runsStore.finish(trx, runId, { status: 'succeeded', applied: run.attempted_sync_spec_fingerprint });
        await runsStore.log(trx, tenantId, runId, `succeeded: ${removed} stale entit(y/ies) removed; applied ${run.attempted_sync_spec_fingerprint}`);
        const done = (await runsStore.get(trx, runId))!;
        await core.events.emit(trx, tenantId, {
          type: SYNC_COMPLETED, source: '/ontology',
          data: eventData(run, { snapshot_id_exact: snapshot, rows_synced: Number(done.rows_synced), replay_reason: done.replay_reason }),
        });
      });
    } catch (err) {
      const refused = err instanceof SyncRefused || (err as { isBoom?: boolean }).isBoom;
      if (refused || attempt > retryLimit) {
        await fail(tenantId, runId, refused ? (err as Error).message : 'the sync failed; see the platform logs');
        if (!refused) core.logger.error({ err, run: runId }, 'ontology sync failed');
        return;
      }
      await core.withTenant(tenantId, (trx) => runsStore.log(trx, tenantId, runId, `attempt ${attempt} failed; retrying`, 'warn'));
      throw err;
    }
  };
}
