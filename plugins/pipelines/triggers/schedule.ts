// An active pipeline's schedule: a graphile-worker timer keyed per pipeline,
// armed for the next occurrence in the same transaction as the pipeline row
// (replaced on change, removed on pause or delete), as source schedules do.
// The handler fires only if the row, locked, still stands for that instant;
// a late timer goes through the platform's missed-run policy (core/cron via
// the SDK: one catch-up run).
import { dueOccurrence, nextOccurrence, type TenantTransaction } from 'agent-platform/sdk';
import type { PipelinesContext } from '../services/context.ts';
import { pipelinesStore, type PipelineRow } from '../store/pipelines.ts';

export const PIPELINE_SCHEDULE_TASK = 'pipelines.pipeline_schedule_fire';

export interface PipelineTimer {
  tenant_id: string;
  pipeline_id: string;
  scheduled_time: string;
}

const timerKey = (tenantId: string, pipelineId: string) => `pipelines:pipeline-schedule:${tenantId}:${pipelineId}`;

/** Arms (or disarms) the timer of an active pipeline after a change; returns the row with its next_run_at. */
export async function armSchedule<T extends Pick<PipelineRow, 'id' | 'schedule_cron' | 'schedule_timezone' | 'state'>>(
  context: PipelinesContext, trx: TenantTransaction, tenantId: string, row: T, after = new Date(),
): Promise<T> {
  if (row.state !== 'active' || !row.schedule_cron) {
    await disarmSchedule(context, trx, tenantId, row.id);
    return { ...row, next_run_at: null };
  }
  const next = nextOccurrence(row.schedule_cron, row.schedule_timezone, after);
  await pipelinesStore.update(trx, row.id, { next_run_at: next });
  const timer: PipelineTimer = { tenant_id: tenantId, pipeline_id: row.id, scheduled_time: next.toISOString() };
  await context.core.jobs.enqueue(PIPELINE_SCHEDULE_TASK, { ...timer }, { trx, jobKey: timerKey(tenantId, row.id), runAt: next });
  return { ...row, next_run_at: next };
}

export async function disarmSchedule(context: PipelinesContext, trx: TenantTransaction, tenantId: string, pipelineId: string): Promise<void> {
  await context.core.jobs.removeJob(timerKey(tenantId, pipelineId), trx);
}

export type StartScheduledRun = (trx: TenantTransaction, tenantId: string, pipeline: PipelineRow, detail: Record<string, unknown>) => Promise<unknown>;

export async function fireSchedule(context: PipelinesContext, timer: PipelineTimer, start: StartScheduledRun, now = new Date()): Promise<void> {
  await context.core.withTenant(timer.tenant_id, async (trx) => {
    const pipeline = await pipelinesStore.lock(trx, timer.pipeline_id);
    const scheduled = new Date(timer.scheduled_time);
    // A timer left over from before an update, a pause or a delete.
    if (!pipeline || pipeline.state !== 'active' || !pipeline.schedule_cron || pipeline.next_run_at?.getTime() !== scheduled.getTime()) return;
    const { fire, due, next } = dueOccurrence(pipeline.schedule_cron, pipeline.schedule_timezone, scheduled, now, context.options.scheduleGraceSeconds, 'catch_up_once');
    if (fire) await start(trx, timer.tenant_id, pipeline, { scheduled_time: fire.toISOString(), missed: due - 1 });
    await pipelinesStore.update(trx, pipeline.id, { next_run_at: next });
    const following: PipelineTimer = { tenant_id: timer.tenant_id, pipeline_id: pipeline.id, scheduled_time: next.toISOString() };
    await context.core.jobs.enqueue(PIPELINE_SCHEDULE_TASK, { ...following }, { trx, jobKey: timerKey(timer.tenant_id, pipeline.id), runAt: next });
  });
}
