// SQL of sync runs and their log lines (every query in a tenant transaction).
import { type KeysetPage, sql, type TenantTransaction } from 'agent-platform/sdk';
import type { EffectiveSpec } from '../sync/fingerprint.ts';

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'skipped' | 'failed';
export interface BulkJob { job_id: string; operation: 'upsert' | 'delete_stale'; submitted_count: number; completed_count: number }

export interface RunRow {
  id: string;
  backing_dataset_id: string;
  workflow_id: string | null;
  status: RunStatus;
  force: boolean;
  effective_spec: EffectiveSpec;
  attempted_sync_spec_fingerprint: string;
  applied_sync_spec_fingerprint: string | null;
  effective_spec_changed: boolean;
  replay_reason: string | null;
  snapshot_id: string | null;
  rows_synced: string;
  bulk_jobs: BulkJob[];
  attempts: number;
  error: string | null;
  requested_by: { kind: string; sub: string; actor?: string };
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const columns = sql`id, backing_dataset_id, workflow_id, status, force, effective_spec, attempted_sync_spec_fingerprint, applied_sync_spec_fingerprint,
  effective_spec_changed, replay_reason, snapshot_id::text AS snapshot_id, rows_synced::text AS rows_synced, bulk_jobs, attempts, error, requested_by,
  created_at, started_at, finished_at`;

export const runsStore = {
  async insert(trx: TenantTransaction, values: { tenant_id: string; backing_dataset_id: string; force: boolean; effective_spec: EffectiveSpec; fingerprint: string; requested_by: object }): Promise<RunRow> {
    const { rows } = await sql<RunRow>`
      INSERT INTO ontology_sync_runs (tenant_id, backing_dataset_id, force, effective_spec, attempted_sync_spec_fingerprint, requested_by)
      VALUES (${values.tenant_id}, ${values.backing_dataset_id}, ${values.force}, ${JSON.stringify(values.effective_spec)}, ${values.fingerprint}, ${JSON.stringify(values.requested_by)})
      RETURNING ${columns}`.execute(trx);
    return rows[0]!;
  },

  setWorkflow: (trx: TenantTransaction, id: string, workflowId: string) => sql`UPDATE ontology_sync_runs SET workflow_id = ${workflowId} WHERE id = ${id}`.execute(trx),

  async get(trx: TenantTransaction, id: string, lock = false): Promise<RunRow | undefined> {
    const { rows } = await sql<RunRow>`SELECT ${columns} FROM ontology_sync_runs WHERE id = ${id} ${lock ? sql`FOR UPDATE` : sql``}`.execute(trx);
    return rows[0];
  },

  async list(trx: TenantTransaction, backingDatasetId: string, before: string | undefined, limit: number): Promise<RunRow[]> {
    const { rows } = await sql<RunRow>`SELECT ${columns} FROM ontology_sync_runs
      WHERE backing_dataset_id = ${backingDatasetId} ${before === undefined ? sql`` : sql`AND (created_at, id) < (SELECT created_at, id FROM ontology_sync_runs WHERE id = ${before})`}
      ORDER BY created_at DESC, id DESC LIMIT ${limit}`.execute(trx);
    return rows;
  },

  /**
   * A keyset page of a backing dataset's runs, newest first (created_at, id
   * descending); the cursor is a run's id. Forward: older than the cursor's
   * run; backward: newer, nearest first.
   */
  async page(trx: TenantTransaction, backingDatasetId: string, page: KeysetPage<string>): Promise<RunRow[]> {
    const forward = page.direction === 'forward';
    const { rows } = await sql<RunRow>`SELECT ${columns} FROM ontology_sync_runs
      WHERE backing_dataset_id = ${backingDatasetId} ${page.cursor === undefined ? sql``
        : sql`AND (created_at, id) ${sql.raw(forward ? '<' : '>')} (SELECT created_at, id FROM ontology_sync_runs WHERE id = ${page.cursor})`}
      ORDER BY created_at ${sql.raw(forward ? 'DESC' : 'ASC')}, id ${sql.raw(forward ? 'DESC' : 'ASC')} LIMIT ${page.limit}`.execute(trx);
    return rows;
  },

  async count(trx: TenantTransaction, backingDatasetId: string): Promise<number> {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ontology_sync_runs WHERE backing_dataset_id = ${backingDatasetId}`.execute(trx);
    return rows[0]!.n;
  },

  async latest(trx: TenantTransaction, backingDatasetId: string): Promise<RunRow | undefined> {
    return (await runsStore.list(trx, backingDatasetId, undefined, 1))[0];
  },

  start: (trx: TenantTransaction, id: string, values: { replay_reason: string; effective_spec_changed: boolean; snapshot_id: string | null }) => sql`
    UPDATE ontology_sync_runs SET status = 'running', attempts = attempts + 1, started_at = coalesce(started_at, now()), replay_reason = ${values.replay_reason},
      effective_spec_changed = ${values.effective_spec_changed}, snapshot_id = ${values.snapshot_id}::bigint, bulk_jobs = '[]', rows_synced = 0, error = NULL
    WHERE id = ${id}`.execute(trx),

  addBulkJob: (trx: TenantTransaction, id: string, job: BulkJob, rows: number) => sql`
    UPDATE ontology_sync_runs SET bulk_jobs = bulk_jobs || ${JSON.stringify([job])}::jsonb, rows_synced = rows_synced + ${rows} WHERE id = ${id}`.execute(trx),

  finish: (trx: TenantTransaction, id: string, values: { status: RunStatus; applied: string | null; snapshot_id?: string | null; error?: string | null; effective_spec_changed?: boolean }) => sql`
    UPDATE ontology_sync_runs SET status = ${values.status}, applied_sync_spec_fingerprint = ${values.applied}, error = ${values.error ?? null},
      snapshot_id = coalesce(${values.snapshot_id ?? null}::bigint, snapshot_id), finished_at = now(),
      effective_spec_changed = coalesce(${values.effective_spec_changed ?? null}, effective_spec_changed),
      attempts = CASE WHEN status = 'queued' THEN attempts + 1 ELSE attempts END,
      rows_synced = CASE WHEN ${values.status} = 'skipped' THEN 0 ELSE rows_synced END
    WHERE id = ${id}`.execute(trx),

  log: (trx: TenantTransaction, tenantId: string, runId: string, message: string, level = 'info') =>
    sql`INSERT INTO ontology_sync_logs (tenant_id, run_id, level, message, at) VALUES (${tenantId}, ${runId}, ${level}, ${message}, clock_timestamp())`.execute(trx),

  async logs(trx: TenantTransaction, runId: string): Promise<{ at: Date; level: string; message: string }[]> {
    const { rows } = await sql<{ at: Date; level: string; message: string }>`SELECT at, level, message FROM ontology_sync_logs WHERE run_id = ${runId} ORDER BY id`.execute(trx);
    return rows;
  },
};
