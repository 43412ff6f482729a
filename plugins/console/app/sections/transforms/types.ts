// What the Transforms section reads from the transforms API (plugins/pipelines-transforms).
export interface Transform {
  id: string; name: string; description: string; sql: string; parameters: Record<string, unknown>;
  output_dataset: string; materialization: 'table' | 'incremental'; unique_key: string[]; status: 'active' | 'archived';
  inputs: string[]; columns: { name: string; type: string }[];
}
export interface Run {
  id: string; trigger: string; status: string; rows: number | null; duration_ms: number | null;
  error: { code: string; message: string } | null; created_at: string; started_at: string | null;
}
export interface Artifact { id: string; run_id: string; kind: string; name: string; size_bytes: number; created_at: string }
export interface Schedule {
  cron: string; timezone: string; missed_run_policy: 'skip' | 'catch_up_once'; paused: boolean;
  next_run_at: string | null; last_run_at: string | null; last_outcome: string | null;
}
/** GET /transforms/{id}/detail. */
export interface Detail extends Transform { schedule: Schedule | null; last_runs: Run[]; artifacts: Artifact[] }

export interface Finding { rule: string; severity: 'error' | 'warning'; message: string; line?: number; column?: number }
/** POST /transforms/review. */
export interface Review {
  ok: boolean;
  analysis: { ok: boolean; errors: { code: string; message: string; line?: number; column?: number }[]; inputs: string[]; columns: { name: string; type: string }[] };
  findings: Finding[];
}
/** POST /transforms/preview. */
export interface Preview { inputs: string[]; sample_rows_per_input: number; columns: { name: string; type: string }[]; rows: Record<string, unknown>[] }
