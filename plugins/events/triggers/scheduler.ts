// Scheduled triggers: each active one has a schedule in core.schedules (kind
// TRIGGER_SCHEDULE, subject the trigger's name), whose timer fires each
// occurrence with the trigger's missed_fire_policy. An occurrence fires
// (schedule.fired + the workflow) in the transaction that arms the next one;
// the trigger row shows the armed occurrence (next_fire_at) and the last one
// fired.
//
// A timer that runs later than the grace period after its occurrence (the
// platform was down): `skip` records the miss and fires nothing;
// `catch_up_once` fires once, for the most recent occurrence that fell due,
// with missed_count saying how many were collapsed.
import type { ScheduleKind } from 'agent-platform/sdk';
import type { EventsContext } from '../services/context.ts';
import { EVENT_SOURCE, SCHEDULE_FIRED } from '../event-types.ts';
import { dispatchRecord, startForTrigger } from '../store/starter.ts';
import { dispatchesStore, triggersStore } from '../store/triggers.ts';

export const TRIGGER_SCHEDULE = 'events.trigger';

export const triggerScheduleKind = (context: EventsContext): ScheduleKind => ({
  graceSeconds: context.options.scheduleGraceSeconds,

  async onFire(trx, { tenantId, subject, scheduledTime, missed, late, next }) {
    const trigger = await triggersStore.lock(trx, subject);
    if (!trigger || !trigger.active || trigger.kind !== 'scheduled') return { outcome: 'missed: the trigger is not an active scheduled trigger' };
    const config = trigger.schedule_config!;
    const fired = await context.emit(trx, tenantId, {
      type: SCHEDULE_FIRED,
      source: EVENT_SOURCE,
      data: {
        trigger: trigger.name,
        scheduled_time: scheduledTime.toISOString(),
        cron: config.cron,
        timezone: config.timezone,
        note: config.note ?? null,
        missed_count: missed,
        late,
      },
    });
    const outcome = await startForTrigger(context, trx, tenantId, trigger, fired.event, 'schedule');
    await dispatchesStore.insertMany(trx, [dispatchRecord(tenantId, trigger, 'schedule', outcome, { id: fired.event.id, seq: fired.seq })]);
    await triggersStore.setState(trx, trigger.name, { last_fired_at: scheduledTime, ...(next ? { next_fire_at: next } : {}) });
    return undefined;
  },

  async onMiss(trx, { tenantId, subject, due, latest, next }) {
    const trigger = await triggersStore.lock(trx, subject);
    if (!trigger) return;
    await dispatchesStore.insertMany(trx, [dispatchRecord(tenantId, trigger, 'schedule', {
      status: 'missed',
      error: `${due} occurrence(s) missed, the latest at ${latest.toISOString()} (missed_fire_policy: skip)`,
    })]);
    await triggersStore.setState(trx, trigger.name, { next_fire_at: next });
  },
});
