// `events.retention` (daily, pg-boss cron in UTC): deletes dispatched events,
// dispatch records and dedup windows older than the retention period, tenant
// by tenant (row-level security: there is no cross-tenant delete).
import type { CoreServices, LongTaskHandler } from 'agent-platform/sdk';
import type { EventsContext } from '../services/context.ts';
import { cursorsStore, eventsStore } from '../store/events.ts';
import { dedupStore, dispatchesStore } from '../store/triggers.ts';

/** Dedup windows are at most 30 days long (schemas.ts): older ones can go whatever the retention. */
const LONGEST_WINDOW_MS = 30 * 86_400_000;

/** `now`: core.clock (tests move it). */
export const retentionTask = (context: EventsContext, tenants: CoreServices['tenants'], now: () => number = Date.now): LongTaskHandler => async () => {
  const days = context.options.retentionDays;
  if (days === 0) return { skipped: true };
  const cutoff = new Date(now() - days * 86_400_000);
  const dedupCutoff = new Date(Math.min(cutoff.getTime(), now() - LONGEST_WINDOW_MS));
  const removed = { events: 0, dispatches: 0, dedup: 0 };
  await tenants.each((id) => context.withTenant(id, async (trx) => {
    removed.events += await eventsStore.deleteDispatchedBefore(trx, id, cutoff, await cursorsStore.get(trx, id));
    removed.dispatches += await dispatchesStore.deleteBefore(trx, cutoff);
    removed.dedup += await dedupStore.deleteBefore(trx, dedupCutoff);
  }));
  return removed;
};
