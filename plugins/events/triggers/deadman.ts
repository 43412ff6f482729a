// Deadman triggers: a watch window per trigger, ended early by a matching
// event (which opens the next one) or by its timer (which fires). Windows are
// measured on event times, and the timer runs in the tenant's dispatcher
// queue, so every event emitted before a deadline is seen before it fires; an
// event the dispatcher meets after a deadline that passed unnoticed (a
// backlog) fires the missed window first.
import { matchesTypePattern, type TenantTransaction } from 'agent-platform/sdk';
import type { CloudEvent } from '../stream/cloudevent.ts';
import type { EventsContext } from '../services/context.ts';
import { DEADMAN_FIRED, EVENT_SOURCE } from '../event-types.ts';
import { matches } from './matching.ts';
import { dispatchRecord, startForTrigger } from '../store/starter.ts';
import { cursorsStore, eventsStore, transactionsRunning } from '../store/events.ts';
import { dispatchesStore, triggersStore, type NewDispatch } from '../store/triggers.ts';
import { armDeadman, type DeadmanPayload } from './timers.ts';
import { DEADMAN_TASK, deadmanKey, tenantQueue } from '../dispatch/jobs.ts';
import type { TriggerRow } from '../store/tables.ts';

/**
 * Fires a deadman trigger for the window that ended at `deadline`: emits
 * deadman.fired, starts the workflow, then either watches again (recurring:
 * a new window from now, or from the next after_event_type) or deactivates
 * the trigger (not recurring: it fired its once). Updates `trigger` in place.
 */
export async function fireDeadman(
  context: EventsContext, trx: TenantTransaction, tenantId: string, trigger: TriggerRow, deadline: Date, records: NewDispatch[],
): Promise<void> {
  const config = trigger.deadman_config!;
  const fired = await context.emit(trx, tenantId, {
    type: DEADMAN_FIRED,
    source: EVENT_SOURCE,
    data: {
      trigger: trigger.name,
      watch_event_type: config.watch_event_type,
      within_seconds: config.within_seconds,
      deadline: deadline.toISOString(),
      after_event_type: config.after_event_type ?? null,
      recurring: config.recurring,
    },
  });
  const outcome = await startForTrigger(context, trx, tenantId, trigger, fired.event, 'deadman');
  records.push(dispatchRecord(tenantId, trigger, 'deadman', outcome, { id: fired.event.id, seq: fired.seq }));
  trigger.last_fired_at = deadline;
  if (!config.recurring) {
    trigger.active = false;
    trigger.deadman_deadline = null;
  } else if (config.after_event_type) {
    trigger.deadman_deadline = null;
  } else {
    trigger.deadman_deadline = new Date(Math.max(deadline.getTime(), Date.now()) + config.within_seconds * 1000);
  }
}

/** Stores a deadman trigger's state and re-arms (or leaves disarmed) its timer. */
export async function saveDeadman(context: EventsContext, trx: TenantTransaction, tenantId: string, trigger: TriggerRow): Promise<void> {
  await triggersStore.setState(trx, trigger.name, {
    active: trigger.active, deadman_deadline: trigger.deadman_deadline, last_fired_at: trigger.last_fired_at,
  });
  if (trigger.active && trigger.deadman_deadline) await armDeadman(context.jobs, trx, tenantId, trigger.name, trigger.deadman_deadline);
  else await context.jobs.removeJob(deadmanKey(tenantId, trigger.name), trx);
}

/**
 * What one stream event does to a deadman trigger, in the dispatcher's batch.
 * Returns whether the trigger's state changed (the batch saves it once).
 */
export async function observeDeadman(
  context: EventsContext, trx: TenantTransaction, tenantId: string, trigger: TriggerRow, event: CloudEvent, records: NewDispatch[],
): Promise<boolean> {
  if (!trigger.active) return false;
  const config = trigger.deadman_config!;
  const time = new Date(event.time);
  const window = config.within_seconds * 1000;
  let changed = false;
  if (trigger.deadman_deadline && matches(config.watch_event_type, config.watch_filter ?? null, event)) {
    if (time.getTime() > trigger.deadman_deadline.getTime()) {
      await fireDeadman(context, trx, tenantId, trigger, trigger.deadman_deadline, records);
    }
    if (trigger.active && trigger.deadman_deadline) trigger.deadman_deadline = new Date(time.getTime() + window);
    changed = true;
  }
  if (trigger.active && config.after_event_type && matchesTypePattern(config.after_event_type, event.type)) {
    // Each occurrence of the after-event (re)starts the watch.
    trigger.deadman_deadline = new Date(time.getTime() + window);
    changed = true;
  }
  return changed;
}

/**
 * The timer job. A stale timer (the window was pushed back, the trigger
 * changed or went) does nothing. It fires only once every event emitted
 * before it ran has been dispatched: transactions still running when it first
 * ran may yet commit such events, so it comes back when they have all ended
 * (in 100 ms, or a second while the dispatcher has events to dispatch).
 */
export async function runDeadmanTimer(context: EventsContext, payload: DeadmanPayload): Promise<void> {
  await context.withTenant(payload.tenant_id, async (trx) => {
    const tenantId = payload.tenant_id;
    const trigger = await triggersStore.lock(trx, payload.trigger);
    const deadline = new Date(payload.deadline);
    if (!trigger || !trigger.active || trigger.kind !== 'deadman' || trigger.deadman_deadline?.getTime() !== deadline.getTime()) return;
    const comeBack = (afterMs: number, settledAfter: string | undefined) => context.jobs.enqueue(DEADMAN_TASK, { ...payload, settled_after: settledAfter }, {
      trx, queue: tenantQueue(tenantId), jobKey: deadmanKey(tenantId, trigger.name), runAt: new Date(Date.now() + afterMs),
    });
    const running = await transactionsRunning(trx, payload.settled_after);
    if (running.waitFor) return void await comeBack(100, running.waitFor);
    if (await eventsStore.anyAfter(trx, tenantId, await cursorsStore.get(trx, tenantId))) return void await comeBack(1000, payload.settled_after ?? running.now);
    const records: NewDispatch[] = [];
    await fireDeadman(context, trx, tenantId, trigger, deadline, records);
    await saveDeadman(context, trx, tenantId, trigger);
    await dispatchesStore.insertMany(trx, records);
  });
}
