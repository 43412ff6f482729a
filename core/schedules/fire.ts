// A schedule's timer runs: in one tenant transaction it locks the row, checks
// that the row still stands for the timer's instant (a timer left over from
// before an update, a pause or a delete does nothing), applies the missed-run
// policy (core/cron.ts dueOccurrence), hands the occurrence to its kind's
// onFire (or the skipped ones to onMiss), records the outcome and arms the
// next occurrence. The row's next_run_at moves in the transaction that fires,
// so a retried or repeated timer for one occurrence finds it gone: one fire
// per occurrence.
import type { Logger } from 'pino';
import type { WithTenant } from '../db/tenant.ts';
import type { JobsApi } from '../jobs/types.ts';
import { dueOccurrence } from '../cron.ts';
import { schedulesStore } from './store.ts';
import { arm, type ScheduleTimer } from './timers.ts';
import type { ScheduleKind } from './types.ts';

export interface FireDeps {
  withTenant: WithTenant;
  jobs: JobsApi;
  logger: Logger;
  now(): Date;
  kindOf(kind: string): ScheduleKind | undefined;
}

export const DEFAULT_GRACE_SECONDS = 60;

export const startedOutcome = (missed: number) => (missed > 0 ? `started (${missed} missed occurrence(s) collapsed)` : 'started');

export async function fireTimer(deps: FireDeps, timer: ScheduleTimer): Promise<void> {
  const definition = deps.kindOf(timer.kind);
  if (!definition) {
    // Its plugin is not in this process's manifest: the timer is dropped (and logged); saving or resuming the schedule arms it again.
    deps.logger.warn({ kind: timer.kind, subject: timer.subject }, 'a schedule timer of an undefined kind was dropped');
    return;
  }
  await deps.withTenant(timer.tenant_id, async (trx) => {
    const schedule = await schedulesStore.find(trx, timer.kind, timer.subject, true);
    const scheduled = new Date(timer.scheduled_time);
    if (!schedule || schedule.paused || schedule.next_run_at?.getTime() !== scheduled.getTime()) return;
    const grace = definition.graceSeconds ?? DEFAULT_GRACE_SECONDS;
    const { fire, latest, due, late, next } = dueOccurrence(schedule.cron, schedule.timezone, scheduled, deps.now(), grace, schedule.missed_policy);
    const base = { tenantId: timer.tenant_id, subject: timer.subject, data: schedule.data };
    let outcome = `missed: ${due} occurrence(s), the latest at ${latest.toISOString()} (missed_run_policy: skip)`;
    let runId = schedule.last_run_id;
    if (fire) {
      const result = await definition.onFire(trx, { ...base, scheduledTime: fire, missed: due - 1, late, next });
      outcome = result?.outcome ?? startedOutcome(due - 1);
      if (result?.runId) runId = result.runId;
    } else {
      await definition.onMiss?.(trx, { ...base, due, latest, next });
    }
    await schedulesStore.set(trx, timer.kind, timer.subject, {
      next_run_at: next, last_run_at: fire ?? schedule.last_run_at, last_outcome: outcome, last_run_id: runId,
    });
    await arm(deps.jobs, trx, timer.tenant_id, timer.kind, timer.subject, next);
  });
}
