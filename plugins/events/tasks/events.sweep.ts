// `events.sweep` (pg-boss, once a minute and at start): wakes the dispatcher
// of every tenant whose stream holds committed events past its cursor. Wakes
// normally follow each emitting commit (dispatch/waker.ts); this finds the one
// a crash lost between a commit and its wake, tenant by tenant (row-level
// security: there is no cross-tenant read).
import type { CoreServices, LongTaskHandler } from 'agent-platform/sdk';
import type { EventsContext } from '../services/context.ts';
import { enqueueDispatch } from '../dispatch/jobs.ts';
import { cursorsStore, eventsStore } from '../store/events.ts';

export const sweepTask = (context: EventsContext, tenants: CoreServices['tenants']): LongTaskHandler => async () => {
  const behind: string[] = [];
  await tenants.each((id) => context.withTenant(id, async (trx) => {
    if (await eventsStore.anyAfter(trx, id, await cursorsStore.get(trx, id))) behind.push(id);
  }));
  for (const id of behind) await enqueueDispatch(context.jobs, id);
  return { woken: behind.length };
};
