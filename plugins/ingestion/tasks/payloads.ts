// The ingestion plugin's tasks (pg-boss) and the payload of each. Jobs are
// enqueued and scheduled through enqueueTask/scheduleTask, which check each
// payload against its task's type; the handlers (tasks/<task-id>.ts) receive
// the same types.
import type { CoreServices, EnqueueLongOptions, ScheduleOptions } from 'agent-platform/sdk';
import type { Stage } from '../store/tables.ts';

export const STAGE_TASK = 'ingestion.stage';
export const RECONCILE_TASK = 'ingestion.reconcile';
export const SYNC_TASK = 'ingestion.sync';
export const REEMBED_TASK = 'ingestion.reembed';

/** One stage job of a document's run: the run id makes a job of a superseded run do nothing. */
export interface StagePayload {
  tenant_id: string;
  document_id: string;
  run_id: string;
  stage: Exclude<Stage, 'done'>;
}

/** A reconciler pass over one tenant (kicked when a run ends), or over every tenant (the cron job has no payload). */
export interface ReconcilePayload {
  tenant_id?: string;
}

/** One sync of one source (from its cron schedule or a sync request). */
export interface SyncPayload {
  tenant_id: string;
  source_id: number;
}

/** Re-embedding every tenant's current chunks with `model` (sent at boot when a pulled model is the embedder). */
export interface ReembedPayload {
  model: string;
}

export interface IngestionTaskPayloads {
  'ingestion.stage': StagePayload;
  'ingestion.reconcile': ReconcilePayload;
  'ingestion.sync': SyncPayload;
  'ingestion.reembed': ReembedPayload;
}

export type IngestionTask = keyof IngestionTaskPayloads;

export function enqueueTask<T extends IngestionTask>(core: CoreServices, task: T, payload: IngestionTaskPayloads[T], options: EnqueueLongOptions = {}) {
  return core.jobs.enqueueLong(task, { ...payload }, options);
}

/** A cron schedule of the task; each tick sends it `payload`. */
export function scheduleTask<T extends IngestionTask>(
  core: CoreServices, task: T, key: string, cron: string, payload: IngestionTaskPayloads[T], options: Omit<ScheduleOptions, 'data'> = {},
) {
  return core.jobs.schedule(task, key, cron, { ...options, data: { ...payload } });
}
