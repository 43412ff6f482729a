// The per-tenant dispatcher. One `events.dispatch` job per tenant is pending or
// running at a time (event_streams.dispatch_queued says which), in the
// tenant's graphile-worker queue. It drains the stream from the tenant's
// cursor in batches; each batch is one transaction that locks the cursor,
// starts the workflows of every active matching trigger, feeds deadman
// watches, records the dispatches and moves the cursor past the batch. If
// anything throws, the transaction rolls back and graphile-worker retries the
// job: nothing is lost, nothing is dispatched twice. The last batch also
// clears the flag, in the statement that moves the cursor. The workflows a
// batch starts are written together at its end (one insert of executions, one
// add_jobs call for their first jobs), in that same transaction.
//
// Batching is why there is no job per event: jobs of one queue run one at a
// time, and a job per event would pay a job claim and completion per event.
import type { JobContext, TenantTransaction } from 'agent-platform/sdk';
import { chainStop } from './chain.ts';
import { toCloudEvent, type CloudEvent } from '../stream/cloudevent.ts';
import type { EventsContext } from '../services/context.ts';
import { observeDeadman, saveDeadman } from '../triggers/deadman.ts';
import { enqueueDispatch } from './jobs.ts';
import { matches } from '../triggers/matching.ts';
import { ownResultsOf } from './own-results.ts';
import { dispatchRecord, queueStart, startForTrigger, type StartOutcome } from '../store/starter.ts';
import { cursorsStore } from '../store/events.ts';
import type { NewDispatch } from '../store/triggers.ts';
import type { TriggerRow } from '../store/tables.ts';
import type { StartBatch } from '../../workflows/api.ts';

export interface BatchOptions {
  /** Enqueue a fresh dispatcher job in this transaction (the drain's slice is over). */
  handOver: boolean;
  /**
   * Start each workflow alone under a savepoint, so one that fails for good is
   * recorded alone. Otherwise the batch's starts are written together (one
   * insert of executions, one add_jobs call) and any failure is thrown.
   */
  safe: boolean;
}

/**
 * Dispatches the next batch. Returns how many events it covered and whether
 * the stream is caught up (the dispatch_queued flag was cleared: this job is done).
 */
export async function dispatchBatch(
  context: EventsContext, trx: TenantTransaction, tenantId: string, options: BatchOptions,
): Promise<{ covered: number; caughtUp: boolean }> {
  const batchSize = context.options.dispatchBatchSize;
  const { cursor, rows, listening } = await cursorsStore.lockAndRead(trx, tenantId, batchSize);
  if (rows.length === 0) return { covered: 0, caughtUp: await cursorsStore.advance(trx, tenantId, cursor, true) };
  const reactive = listening.filter((trigger) => trigger.kind === 'reactive');
  const deadman = listening.filter((trigger) => trigger.kind === 'deadman');
  const changedDeadman = new Set<TriggerRow>();
  const records: NewDispatch[] = [];
  // Opened at the first start: the definitions of every reactive trigger's workflow in one query.
  let batch: StartBatch | undefined;
  const start = async (trigger: TriggerRow, event: CloudEvent): Promise<StartOutcome> => {
    if (options.safe) return startForTrigger(context, trx, tenantId, trigger, event, 'event');
    batch ??= await context.workflows().startBatch(trx, tenantId, reactive.map((t) => t.target_name));
    return queueStart(trx, tenantId, trigger, event, 'event', batch);
  };
  for (const row of rows) {
    const event = toCloudEvent(row);
    const own = ownResultsOf(trx, event);
    for (const trigger of reactive) {
      if (row.seq <= trigger.listen_after_seq || !matches(trigger.event_type, trigger.event_filter, event)) continue;
      // ignore_own_results: the trigger does not react to the end of an execution it started itself.
      if (trigger.ignore_own_results && (await own()).has(trigger.name)) continue;
      // The chain guard: an event this deep in a chain of workflows emitting events starts nothing (recorded as failed).
      const outcome = chainStop(event, context.maxChainDepth) ?? await start(trigger, event);
      records.push(dispatchRecord(tenantId, trigger, 'event', outcome, { id: event.id, seq: row.seq }));
    }
    for (const trigger of deadman) {
      if (row.seq <= trigger.listen_after_seq) continue;
      if (await observeDeadman(context, trx, tenantId, trigger, event, records)) changedDeadman.add(trigger);
    }
  }
  await batch?.flush();
  for (const trigger of changedDeadman) await saveDeadman(context, trx, tenantId, trigger);
  // A short batch has probably caught up: try to close in the same statement.
  const caughtUp = await cursorsStore.advance(trx, tenantId, rows.at(-1)!.seq, !options.handOver && rows.length < batchSize, records);
  if (options.handOver && !caughtUp) await enqueueDispatch(context.jobs, tenantId, trx);
  return { covered: rows.length, caughtUp };
}

/**
 * The job: drains until caught up, or for one slice, after which the last
 * batch hands over to a fresh job in the same transaction (other tenants get
 * the worker, and a shutdown does not wait on a long drain). Batches start
 * workflows without savepoints; a batch that fails is redone at once with
 * them (so a trigger whose start fails for good costs one redo, and is
 * recorded), and a failure then is left to graphile-worker's retry.
 */
export async function drain(context: EventsContext, tenantId: string, job: Pick<JobContext, 'signal' | 'attempt'>): Promise<void> {
  const until = Date.now() + context.options.dispatchSliceMs;
  let safe = job.attempt > 1;
  for (;;) {
    const handOver = Date.now() >= until || job.signal.aborted;
    let result: { covered: number; caughtUp: boolean };
    try {
      result = await context.withTenant(tenantId, (trx) => dispatchBatch(context, trx, tenantId, { handOver, safe }));
    } catch (err) {
      if (safe) throw err;
      safe = true;
      continue;
    }
    if (result.caughtUp || (handOver && result.covered > 0)) return;
  }
}
