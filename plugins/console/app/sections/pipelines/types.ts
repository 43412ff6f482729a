// The shapes of the pipelines API that the section reads (plugins/pipelines).
import type { Tone } from '../../ui/status-badge.ts';

export interface Step {
  id: string;
  name?: string;
  transform_id?: string;
  transform_name?: string;
  sql?: string;
  output?: string;
  inputs?: string[];
  materialization?: string;
}

export type PipelineState = 'draft' | 'validated' | 'active' | 'paused';

export interface Pipeline {
  id: string;
  name: string;
  description: string;
  steps: Step[];
  state: PipelineState;
  active_version: number | null;
  latest_version: number | null;
  sensor: boolean;
  schedule: { cron: string; timezone: string } | null;
  updated_at: string;
}

export interface DagError { code: string; message: string; steps?: string[] }
export interface DagValidation { valid: boolean; errors: DagError[]; order: string[] }

export interface Version { version: number; note: string; fingerprint: string; created_by: string | null; created_at: string }

export interface StepResult {
  step_id: string;
  status: string;
  depends_on: string[];
  output_dataset: string | null;
  rows: number | null;
  schema: { name: string; type: string }[] | null;
  sample_rows: Record<string, unknown>[] | null;
  error: string | null;
  duration_ms: number | null;
}

export interface Run {
  id: string;
  workflow_id: string;
  version: number;
  kind: 'sandbox' | 'production';
  trigger: string;
  status: string;
  error: string | null;
  started_at: string;
  finished_at: string | null;
  steps: StepResult[];
}

/** A transform a step may name: its output dataset draws the edges to the steps that read it. */
export interface AvailableTransform { id: string; name: string; output_dataset: string }

export type List<T> = { items: T[]; total: number };

export const TERMINAL = ['succeeded', 'failed', 'cancelled'];

export function stateTone(state: string): Tone {
  if (state === 'active' || state === 'validated') return 'ok';
  if (state === 'paused') return 'warn';
  return 'neutral';
}

export function runTone(status: string): Tone {
  if (status === 'succeeded') return 'ok';
  if (status === 'failed') return 'error';
  if (status === 'cancelled' || status === 'skipped') return 'warn';
  return 'neutral';
}
