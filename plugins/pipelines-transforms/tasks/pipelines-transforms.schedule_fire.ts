// The timer job of a transform schedule: a graphile-worker job keyed per
// transform, armed for the next occurrence in the same transaction as the
// schedule row (replaced on change, removed on pause or delete). It fires only
// if the row, locked, still stands for that instant; the occurrence goes
// through the platform's missed-run policy (SDK dueOccurrence, shared with
// source schedules and scheduled triggers).
import { dueOccurrence, type TenantTransaction } from 'agent-platform/sdk';
import type { TransformsContext } from '../services/context.ts';
import type { RunService } from '../services/runs.ts';
import { runsStore } from '../store/runs.ts';
import { schedulesStore } from '../store/schedules.ts';
import { transformsStore } from '../store/transforms.ts';

export const SCHEDULE_TASK = 'pipelines-transforms.schedule_fire';

export interface ScheduleTimer {
  tenant_id: string;
  transform_id: string;
  /** ISO instant of the occurrence this timer stands for. */
  scheduled_time: string;
}

const timerKey = (tenantId: string, transformId: string) => `pipelines-transforms:schedule:${tenantId}:${transformId}`;

export async function arm(context: TransformsContext, trx: TenantTransaction, tenantId: string, transformId: string, at: Date): Promise<void> {
  const payload: ScheduleTimer = { tenant_id: tenantId, transform_id: transformId, scheduled_time: at.toISOString() };
  await context.core.jobs.enqueue(SCHEDULE_TASK, { ...payload }, { trx, jobKey: timerKey(tenantId, transformId), runAt: at });
}

export async function disarm(context: TransformsContext, trx: TenantTransaction, tenantId: string, transformId: string): Promise<void> {
  await context.core.jobs.removeJob(timerKey(tenantId, transformId), trx);
}

export function fireSchedule(context: TransformsContext, runs: RunService) {
  return (timer: ScheduleTimer) => context.core.withTenant(timer.tenant_id, async (trx) => {
    const schedule = await schedulesStore.find(trx, timer.transform_id, true);
    const scheduled = new Date(timer.scheduled_time);
    if (!schedule || schedule.paused || schedule.next_run_at?.getTime() !== scheduled.getTime()) return;
    const { fire, latest, due, next } = dueOccurrence(schedule.cron, schedule.timezone, scheduled, context.core.clock.now(), context.options.scheduleGraceSeconds, schedule.missed_run_policy);
    let outcome = `missed: ${due} occurrence(s), the latest at ${latest.toISOString()} (missed_run_policy: skip)`;
    let runId: string | null = null;
    if (fire) {
      const transform = await transformsStore.find(trx, timer.transform_id, true);
      if (transform && (await runsStore.live(trx, transform.id))) {
        outcome = 'busy: a run was still going';
      } else if (transform) {
        runId = await runs.queue(trx, timer.tenant_id, transform, { trigger: 'schedule', createdBy: null });
        outcome = due > 1 ? `started (${due - 1} missed occurrence(s) collapsed)` : 'started';
      }
    }
    await schedulesStore.set(trx, timer.transform_id, { next_run_at: next, last_run_at: fire ?? schedule.last_run_at, last_outcome: outcome, last_run_id: runId ?? schedule.last_run_id });
    await arm(context, trx, timer.tenant_id, timer.transform_id, next);
  });
}
