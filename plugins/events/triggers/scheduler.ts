// Scheduled triggers: each active one has a timer job armed for its next
// occurrence. When it runs, the occurrence fires (schedule.fired + the
// workflow) and the timer is armed for the one after, all in one transaction.
//
// A timer that runs later than the grace period after its occurrence (the
// platform was down) applies the trigger's missed_fire_policy: `skip` records
// the miss and fires nothing; `catch_up_once` fires once, for the most recent
// occurrence that fell due, with missed_count saying how many were collapsed.
import type { EventsContext } from '../services/context.ts';
import { EVENT_SOURCE, SCHEDULE_FIRED } from '../event-types.ts';
import { dueOccurrence } from './schedule.ts';
import { dispatchRecord, startForTrigger } from '../store/starter.ts';
import { dispatchesStore, triggersStore, type NewDispatch } from '../store/triggers.ts';
import { armSchedule, type SchedulePayload } from './timers.ts';

export async function runScheduleTimer(context: EventsContext, payload: SchedulePayload, now = new Date()): Promise<void> {
  await context.withTenant(payload.tenant_id, async (trx) => {
    const tenantId = payload.tenant_id;
    const scheduled = new Date(payload.scheduled_time);
    const trigger = await triggersStore.lock(trx, payload.trigger);
    // A timer left over from before an update, a deactivation or a delete.
    if (!trigger || !trigger.active || trigger.kind !== 'scheduled' || trigger.next_fire_at?.getTime() !== scheduled.getTime()) return;
    const config = trigger.schedule_config!;
    // The occurrences that fell due, and the missed-run policy's verdict (core/cron.ts).
    const { fire, latest, due, late, next } = dueOccurrence(
      config.cron, config.timezone, scheduled, now, context.options.scheduleGraceSeconds, config.missed_fire_policy,
    );
    const records: NewDispatch[] = [];
    if (fire) {
      const fired = await context.emit(trx, tenantId, {
        type: SCHEDULE_FIRED,
        source: EVENT_SOURCE,
        data: {
          trigger: trigger.name,
          scheduled_time: latest.toISOString(),
          cron: config.cron,
          timezone: config.timezone,
          note: config.note ?? null,
          missed_count: due - 1,
          late,
        },
      });
      const outcome = await startForTrigger(context, trx, tenantId, trigger, fired.event, 'schedule');
      records.push(dispatchRecord(tenantId, trigger, 'schedule', outcome, { id: fired.event.id, seq: fired.seq }));
    } else {
      records.push(dispatchRecord(tenantId, trigger, 'schedule', {
        status: 'missed',
        error: `${due} occurrence(s) missed, the latest at ${latest.toISOString()} (missed_fire_policy: skip)`,
      }));
    }
    await dispatchesStore.insertMany(trx, records);
    await triggersStore.setState(trx, trigger.name, { next_fire_at: next, last_fired_at: fire ?? trigger.last_fired_at });
    await armSchedule(context.jobs, trx, tenantId, trigger.name, next);
  });
}
