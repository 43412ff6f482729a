// JSON views of runs. Run ids are decimal strings (their canonical form);
// snapshot ids go out twice: the deprecated number (its exact digits, as the
// lakehouse writes them) and the `_exact` decimal string.
import type { TransformRunRecord } from '../api.ts';
import type { RunRow } from '../store/runs.ts';

const rawJson = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

export function exactPair<N extends string>(name: N, id: string | null): Record<string, unknown> {
  return { [name]: id === null ? null : rawJson(id), [`${name}_exact`]: id };
}

export function runView(row: RunRow) {
  return {
    id: row.id, transform_id: row.transform_id, orchestrator_run_id: row.orchestrator_run_id, pipeline_run_id: row.pipeline_run_id,
    trigger: row.trigger, status: row.status, parameters: row.parameters, output_dataset: row.output_dataset, rows: row.rows,
    ...exactPair('snapshot_id', row.snapshot_id), columns: row.columns, error: row.error, cancel_requested: row.cancel_requested,
    created_by: row.created_by, created_at: row.created_at, started_at: row.started_at, finished_at: row.finished_at,
    duration_ms: row.started_at && row.finished_at ? row.finished_at.getTime() - row.started_at.getTime() : null,
  };
}

/** The api's run record: the REST view with the snapshot id as its exact decimal string only. */
export function runRecord(row: RunRow): TransformRunRecord {
  const { snapshot_id_exact: exact, ...view } = runView(row) as ReturnType<typeof runView> & { snapshot_id_exact: string | null };
  return { ...view, snapshot_id: exact } as TransformRunRecord;
}
