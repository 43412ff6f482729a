// Timers of scheduled and deadman triggers, set, replaced or removed in the
// same transaction as the trigger row that needs them: a scheduled trigger's
// is its schedule in core.schedules (kind TRIGGER_SCHEDULE, scheduler.ts); a
// deadman trigger's is a graphile-worker job keyed per trigger, carrying the
// instant it was armed for (its handler fires only if the row, locked, still
// says so).
import type { TenantTransaction } from 'agent-platform/sdk';
import type { EventsContext } from '../services/context.ts';
import { DEADMAN_TASK, deadmanKey, tenantQueue } from '../dispatch/jobs.ts';
import { TRIGGER_SCHEDULE } from './scheduler.ts';
import type { TriggerState } from '../store/triggers.ts';
import type { TriggerRow } from '../store/tables.ts';

type Jobs = EventsContext['jobs'];
type Timers = Pick<EventsContext, 'jobs' | 'schedules'>;

export interface DeadmanPayload {
  tenant_id: string;
  trigger: string;
  /** ISO instant at which the watch window ends. */
  deadline: string;
  /** Set once the timer has run: it waits for the transactions running then (their ids are below this one) to end. */
  settled_after?: string;
}

/** In the tenant's queue: it runs only after the events emitted before the deadline were dispatched. */
export async function armDeadman(jobs: Jobs, trx: TenantTransaction, tenantId: string, name: string, deadline: Date): Promise<void> {
  const payload: DeadmanPayload = { tenant_id: tenantId, trigger: name, deadline: deadline.toISOString() };
  await jobs.enqueue(DEADMAN_TASK, { ...payload }, { trx, queue: tenantQueue(tenantId), jobKey: deadmanKey(tenantId, name), runAt: deadline });
}

export async function disarm(timers: Timers, trx: TenantTransaction, tenantId: string, name: string): Promise<void> {
  await timers.schedules.remove(trx, tenantId, TRIGGER_SCHEDULE, name);
  await timers.jobs.removeJob(deadmanKey(tenantId, name), trx);
}

/**
 * Makes a trigger's timers match its definition after a create or update (its
 * kind may have changed): removes the old ones and arms what it needs now.
 * Returns the state columns to store.
 */
export async function armTrigger(timers: Timers, trx: TenantTransaction, tenantId: string, trigger: TriggerRow, now = new Date()): Promise<TriggerState> {
  const { jobs } = timers;
  await disarm(timers, trx, tenantId, trigger.name);
  if (!trigger.active) return { next_fire_at: null, deadman_deadline: null };
  if (trigger.kind === 'scheduled' && trigger.schedule_config) {
    const { cron, timezone, missed_fire_policy } = trigger.schedule_config;
    const schedule = await timers.schedules.put(trx, tenantId, { kind: TRIGGER_SCHEDULE, subject: trigger.name, cron, timezone, missedPolicy: missed_fire_policy });
    return { next_fire_at: schedule.next_run_at, deadman_deadline: null };
  }
  if (trigger.kind === 'deadman' && trigger.deadman_config) {
    // With after_event_type, watching starts when that event occurs (the dispatcher arms it).
    if (trigger.deadman_config.after_event_type) return { next_fire_at: null, deadman_deadline: null };
    const deadline = new Date(now.getTime() + trigger.deadman_config.within_seconds * 1000);
    await armDeadman(jobs, trx, tenantId, trigger.name, deadline);
    return { next_fire_at: null, deadman_deadline: deadline };
  }
  return { next_fire_at: null, deadman_deadline: null };
}
