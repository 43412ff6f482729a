// How a sync run is shown: the exact run adds is_terminal,
// rows_synced and bulk_jobs; the effective spec's JSON stays internal (its
// fingerprint is shown); no request rows or credentials are ever stored.
import type { RunRow } from '../store/runs.ts';

export const TERMINAL = ['succeeded', 'skipped', 'failed'];

export function runSummary(row: RunRow) {
  return {
    id: row.id, run_id: row.id, backing_dataset_id: row.backing_dataset_id, workflow_id: row.workflow_id, status: row.status,
    sync_contract_version: 2 as const, force: row.force, force_replay: row.force, replay_reason: row.replay_reason,
    effective_spec_changed: row.effective_spec_changed,
    attempted_sync_spec_fingerprint: row.attempted_sync_spec_fingerprint, applied_sync_spec_fingerprint: row.applied_sync_spec_fingerprint,
    entity_type_version: row.effective_spec.entity_type.version,
    snapshot_id: row.snapshot_id === null ? null : Number(row.snapshot_id), snapshot_id_exact: row.snapshot_id,
    rows_synced: Number(row.rows_synced), is_terminal: TERMINAL.includes(row.status),
    attempts: row.attempts, error: row.error, requested_by: row.requested_by,
    created_at: row.created_at, started_at: row.started_at, finished_at: row.finished_at,
  };
}

export function exactRun(row: RunRow) {
  return { ...runSummary(row), bulk_jobs: row.bulk_jobs };
}
