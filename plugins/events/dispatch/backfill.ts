// Backfill: replays already dispatched events (oldest first, from `since`)
// through one reactive trigger, in the caller's transaction. Events the
// dispatcher has not reached yet are left to it. Idempotent only with a dedup
// key (core-platform 4.4): its windows are kept, so a second run over the same
// events is deduplicated.
import { badRequest, conflict, notFound, type TenantTransaction } from 'agent-platform/sdk';
import { chainStop } from './chain.ts';
import { toCloudEvent } from '../stream/cloudevent.ts';
import type { EventsContext } from '../services/context.ts';
import { matches } from '../triggers/matching.ts';
import { ownResultsOf } from './own-results.ts';
import { dispatchRecord, startForTrigger } from '../store/starter.ts';
import { cursorsStore, eventsStore } from '../store/events.ts';
import { isPast } from '../stream/position.ts';
import { dispatchesStore, triggersStore, type NewDispatch } from '../store/triggers.ts';

export interface BackfillOptions {
  since?: Date;
  limit: number;
}

export interface BackfillResult {
  scanned: number;
  matched: number;
  dispatched: number;
  deduplicated: number;
  errors: { event_id: string; seq: number; error: string }[];
  /** The time of the last event scanned: the `since` of a next run. */
  last_event_time: Date | null;
}

export async function runBackfill(
  context: EventsContext, trx: TenantTransaction, tenantId: string, name: string, options: BackfillOptions,
): Promise<BackfillResult> {
  const trigger = await triggersStore.get(trx, name);
  if (!trigger) throw notFound(`Trigger not found: ${name}`, 'TRIGGER_NOT_FOUND');
  if (trigger.kind !== 'reactive') throw badRequest(`Only reactive triggers can be backfilled; ${name} is ${trigger.kind}`, 'TRIGGER_NOT_REACTIVE');
  if (!trigger.active) throw conflict(`Trigger ${name} is inactive`, 'TRIGGER_INACTIVE');
  const cursor = await cursorsStore.get(trx, tenantId);
  const rows = (await eventsStore.from(trx, options.since, options.limit)).filter((row) => isPast(row, cursor));
  const result: BackfillResult = { scanned: 0, matched: 0, dispatched: 0, deduplicated: 0, errors: [], last_event_time: null };
  const records: NewDispatch[] = [];
  for (const row of rows) {
    const event = toCloudEvent(row);
    result.scanned += 1;
    result.last_event_time = row.time;
    if (!matches(trigger.event_type, trigger.event_filter, event)) continue;
    if (trigger.ignore_own_results && (await ownResultsOf(trx, event)()).has(trigger.name)) continue;
    result.matched += 1;
    const outcome = chainStop(event, context.maxChainDepth) ?? await startForTrigger(context, trx, tenantId, trigger, event, 'backfill');
    records.push(dispatchRecord(tenantId, trigger, 'backfill', outcome, { id: event.id, seq: row.seq }));
    if (outcome.status === 'started') result.dispatched += 1;
    else if (outcome.status === 'deduplicated') result.deduplicated += 1;
    else result.errors.push({ event_id: event.id, seq: row.seq, error: outcome.error ?? 'failed' });
  }
  await dispatchesStore.insertMany(trx, records);
  return result;
}
