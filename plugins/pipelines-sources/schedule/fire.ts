// A schedule's timer runs: the occurrence(s) that fell due go through the
// platform's missed-run policy (core/cron.ts dueOccurrence, shared with the
// scheduled triggers of plugins/events): on time, or late with
// catch_up_once, one sync run starts; late with skip, the miss is recorded.
// A run still going makes the occurrence "busy" (recorded, not queued). The
// next occurrence is armed in the same transaction.
import { dueOccurrence } from 'agent-platform/sdk';
import type { SourcesContext } from '../services/context.ts';
import { runsStore } from '../store/runs.ts';
import { schedulesStore } from '../store/schedules.ts';
import { sourcesStore } from '../store/sources.ts';
import { isLive, startRun } from '../sync/start.ts';
import { arm, type ScheduleTimer } from './timers.ts';

export async function fireSchedule(context: SourcesContext, timer: ScheduleTimer, now = new Date()): Promise<void> {
  await context.core.withTenant(timer.tenant_id, async (trx) => {
    const schedule = await schedulesStore.lock(trx, timer.source_id);
    const scheduled = new Date(timer.scheduled_time);
    // A timer left over from before an update, a pause or a delete.
    if (!schedule || schedule.paused || schedule.next_run_at?.getTime() !== scheduled.getTime()) return;
    const { fire, latest, due, next } = dueOccurrence(schedule.cron, schedule.timezone, scheduled, now, context.options.scheduleGraceSeconds, schedule.missed_run_policy);
    let outcome = `missed: ${due} occurrence(s), the latest at ${latest.toISOString()} (missed_run_policy: skip)`;
    let runId: string | null = null;
    if (fire) {
      await sourcesStore.lock(trx, timer.source_id); // as a manual start does: one live run per source
      const live = await runsStore.latest(trx, timer.source_id);
      if (live && isLive(live.status)) {
        outcome = `busy: run ${live.id} was still ${live.status}`;
      } else {
        runId = (await startRun(context, trx, timer.tenant_id, timer.source_id, { trigger: 'schedule', createdBy: null })).id;
        outcome = due > 1 ? `started (${due - 1} missed occurrence(s) collapsed)` : 'started';
      }
    }
    await schedulesStore.set(trx, timer.source_id, {
      next_run_at: next, last_run_at: fire ?? schedule.last_run_at, last_outcome: outcome, last_sync_run_id: runId ?? schedule.last_sync_run_id,
    });
    await arm(context, trx, timer.tenant_id, timer.source_id, next);
  });
}
