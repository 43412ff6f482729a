// Rows as the API shows them (REST and GraphQL read the same shapes).
import type { RunRow, RunStepRow } from '../store/runs.ts';
import type { PipelineRow, VersionRow } from '../store/pipelines.ts';

export function pipelineView(row: Omit<PipelineRow, 'latest_version'> & { latest_version?: number | null }) {
  return {
    id: row.id, name: row.name, description: row.description, steps: row.steps,
    schedule: row.schedule_cron ? { cron: row.schedule_cron, timezone: row.schedule_timezone } : null,
    sensor: row.sensor, state: row.state, active_version: row.active_version, latest_version: row.latest_version ?? null,
    activated_at: row.activated_at, next_run_at: row.next_run_at, created_by: row.created_by, created_at: row.created_at, updated_at: row.updated_at,
  };
}
export type PipelineView = ReturnType<typeof pipelineView>;

export function versionView(row: VersionRow) {
  return { pipeline_id: row.pipeline_id, version: row.version, steps: row.steps, fingerprint: row.fingerprint, note: row.note, created_by: row.created_by, created_at: row.created_at };
}

export function stepView(row: RunStepRow) {
  const duration = row.started_at && row.finished_at ? row.finished_at.getTime() - row.started_at.getTime() : null;
  return {
    step_id: row.step_id, status: row.status, depends_on: row.depends_on, output_dataset: row.output_dataset,
    snapshot_id_exact: row.snapshot_id, rows: row.rows, schema: row.columns, sample_rows: row.sample_rows, error: row.error,
    started_at: row.started_at, finished_at: row.finished_at, duration_ms: duration, sql_ms: row.sql_ms,
  };
}
export type StepView = ReturnType<typeof stepView>;

export function runView(row: RunRow, steps: RunStepRow[]) {
  return {
    id: row.id, workflow_id: row.id, pipeline_id: row.pipeline_id, version: row.version, kind: row.kind, trigger: row.trigger,
    trigger_detail: row.trigger_detail, status: row.status, error: row.error, created_by: row.created_by,
    started_at: row.started_at, finished_at: row.finished_at, steps: steps.map(stepView),
  };
}
export type RunView = ReturnType<typeof runView>;
