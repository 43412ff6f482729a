// An active pipeline's schedule, kept by core.schedules (kind
// PIPELINE_SCHEDULE, subject the pipeline id, missed-run policy
// catch_up_once): put when the pipeline becomes active or its schedule
// changes, removed when it is paused or deleted, in the same transaction as
// the pipeline row. The row's next_run_at shows the armed occurrence.
import type { ScheduleKind, TenantTransaction } from 'agent-platform/sdk';
import type { PipelinesContext } from '../services/context.ts';
import { pipelinesStore, type PipelineRow } from '../store/pipelines.ts';

export const PIPELINE_SCHEDULE = 'pipelines.pipeline';

/** Arms (or disarms) the timer of an active pipeline after a change; returns the row with its next_run_at. */
export async function armSchedule<T extends Pick<PipelineRow, 'id' | 'schedule_cron' | 'schedule_timezone' | 'state'>>(
  context: PipelinesContext, trx: TenantTransaction, tenantId: string, row: T,
): Promise<T> {
  if (row.state !== 'active' || !row.schedule_cron) {
    await disarmSchedule(context, trx, tenantId, row.id);
    return { ...row, next_run_at: null };
  }
  const schedule = await context.core.schedules.put(trx, tenantId, {
    kind: PIPELINE_SCHEDULE, subject: row.id, cron: row.schedule_cron, timezone: row.schedule_timezone, missedPolicy: 'catch_up_once',
  });
  await pipelinesStore.update(trx, row.id, { next_run_at: schedule.next_run_at });
  return { ...row, next_run_at: schedule.next_run_at };
}

export async function disarmSchedule(context: PipelinesContext, trx: TenantTransaction, tenantId: string, pipelineId: string): Promise<void> {
  await context.core.schedules.remove(trx, tenantId, PIPELINE_SCHEDULE, pipelineId);
}

export type StartScheduledRun = (trx: TenantTransaction, tenantId: string, pipeline: PipelineRow, detail: Record<string, unknown>) => Promise<unknown>;

/** An occurrence starts a run of the active version (one for a late timer's whole gap). */
export const pipelineScheduleKind = (context: PipelinesContext, start: StartScheduledRun): ScheduleKind => ({
  graceSeconds: context.options.scheduleGraceSeconds,
  async onFire(trx, { tenantId, subject, scheduledTime, missed, next }) {
    const pipeline = await pipelinesStore.lock(trx, subject);
    if (!pipeline || pipeline.state !== 'active' || !pipeline.schedule_cron) return { outcome: 'missed: the pipeline is not active' };
    await start(trx, tenantId, pipeline, { scheduled_time: scheduledTime.toISOString(), missed });
    if (next) await pipelinesStore.update(trx, pipeline.id, { next_run_at: next });
    return undefined;
  },
});
