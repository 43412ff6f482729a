// Timer jobs of scheduled and deadman triggers: graphile-worker jobs with a
// key per trigger, enqueued, replaced or removed in the same transaction as
// the trigger row that needs them. A timer job carries the instant it was
// armed for; its handler fires only if the row, locked, still says so.
import type { TenantTransaction } from 'agent-platform/sdk';
import type { EventsContext } from '../services/context.ts';
import { DEADMAN_TASK, SCHEDULE_TASK, deadmanKey, scheduleKey, tenantQueue } from '../dispatch/jobs.ts';
import { nextOccurrence } from './schedule.ts';
import type { TriggerState } from '../store/triggers.ts';
import type { TriggerRow } from '../store/tables.ts';

type Jobs = EventsContext['jobs'];

export interface SchedulePayload {
  tenant_id: string;
  trigger: string;
  /** ISO instant of the occurrence this timer stands for. */
  scheduled_time: string;
}

export interface DeadmanPayload {
  tenant_id: string;
  trigger: string;
  /** ISO instant at which the watch window ends. */
  deadline: string;
}

export async function armSchedule(jobs: Jobs, trx: TenantTransaction, tenantId: string, name: string, at: Date): Promise<void> {
  const payload: SchedulePayload = { tenant_id: tenantId, trigger: name, scheduled_time: at.toISOString() };
  await jobs.enqueue(SCHEDULE_TASK, { ...payload }, { trx, jobKey: scheduleKey(tenantId, name), runAt: at });
}

/** In the tenant's queue: it runs only after the events emitted before the deadline were dispatched. */
export async function armDeadman(jobs: Jobs, trx: TenantTransaction, tenantId: string, name: string, deadline: Date): Promise<void> {
  const payload: DeadmanPayload = { tenant_id: tenantId, trigger: name, deadline: deadline.toISOString() };
  await jobs.enqueue(DEADMAN_TASK, { ...payload }, { trx, queue: tenantQueue(tenantId), jobKey: deadmanKey(tenantId, name), runAt: deadline });
}

export async function disarm(jobs: Jobs, trx: TenantTransaction, tenantId: string, name: string): Promise<void> {
  await jobs.removeJob(scheduleKey(tenantId, name), trx);
  await jobs.removeJob(deadmanKey(tenantId, name), trx);
}

/**
 * Makes a trigger's timers match its definition after a create or update (its
 * kind may have changed): removes the old ones and arms what it needs now.
 * Returns the state columns to store.
 */
export async function armTrigger(jobs: Jobs, trx: TenantTransaction, tenantId: string, trigger: TriggerRow, now = new Date()): Promise<TriggerState> {
  await disarm(jobs, trx, tenantId, trigger.name);
  if (!trigger.active) return { next_fire_at: null, deadman_deadline: null };
  if (trigger.kind === 'scheduled' && trigger.schedule_config) {
    const at = nextOccurrence(trigger.schedule_config.cron, trigger.schedule_config.timezone, now);
    await armSchedule(jobs, trx, tenantId, trigger.name, at);
    return { next_fire_at: at, deadman_deadline: null };
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
