// The per-tenant dispatcher. One `events.dispatch` job per tenant runs at a
// time (the tenant's graphile-worker queue); emitters wake it after their
// commit (dispatch/waker.ts). It drains the stream from the tenant's cursor in
// batches, reading only below the visibility horizon (stream/position.ts);
// each batch is one transaction that locks the cursor, starts the workflows of
// every active matching trigger, feeds deadman watches, records the dispatches
// and moves the cursor past the batch. If anything throws, the transaction
// rolls back and graphile-worker retries the job: nothing is lost, nothing is
// dispatched twice. The workflows a batch starts are written together at its
// end (one insert of executions, one add_jobs call for their first jobs), in
// that same transaction.
//
// Batching is why there is no job per event: jobs of one queue run one at a
// time, and a job per event would pay a job claim and completion per event.
import { inSpan, type JobContext, SpanKind, type TenantTransaction, traceparentContext, tracing } from 'agent-platform/sdk';
import { chainStop } from './chain.ts';
import { toCloudEvent, type CloudEvent } from '../stream/cloudevent.ts';
import type { EventsContext } from '../services/context.ts';
import { observeDeadman, saveDeadman } from '../triggers/deadman.ts';
import { enqueueDispatch } from './jobs.ts';
import { listensTo } from '../stream/position.ts';
import { matches } from '../triggers/matching.ts';
import { ownResultsOf } from './own-results.ts';
import { dispatchRecord, queueStart, startForTrigger, type StartOutcome } from '../store/starter.ts';
import { cursorsStore } from '../store/events.ts';
import type { NewDispatch } from '../store/triggers.ts';
import type { EventRow, TriggerRow } from '../store/tables.ts';
import type { StartBatch } from '../../workflows/api.ts';

export interface BatchOptions {
  /**
   * Start each workflow alone under a savepoint, so one that fails for good is
   * recorded alone. Otherwise the batch's starts are written together (one
   * insert of executions, one add_jobs call) and any failure is thrown.
   */
  safe: boolean;
}

/** What a batch found: how many events it covered, and whether committed events wait beyond the visibility horizon. */
export interface BatchResult {
  covered: number;
  waiting: boolean;
}

/**
 * While tracing is on, an event's dispatch is a span `event.dispatch` in the
 * trace of its emit (kept with the event): the workflows it starts, and their
 * steps, continue that trace whichever job dispatches it.
 */
function inEventTrace(row: EventRow, work: () => Promise<void>): Promise<void> {
  if (!tracing() || !row.traceparent) return work();
  return inSpan('event.dispatch', {
    kind: SpanKind.CONSUMER, parent: traceparentContext(row.traceparent),
    attributes: { 'event.type': row.type, 'tenant.id': row.tenant_id },
  }, work);
}

/** Dispatches the next batch. */
export async function dispatchBatch(context: EventsContext, trx: TenantTransaction, tenantId: string, options: BatchOptions): Promise<BatchResult> {
  const batchSize = context.options.dispatchBatchSize;
  const { rows, listening, waiting } = await cursorsStore.lockAndRead(trx, tenantId, batchSize);
  if (rows.length === 0) return { covered: 0, waiting };
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
  for (const row of rows) await inEventTrace(row, async () => {
    const event = toCloudEvent(row);
    const own = ownResultsOf(trx, event);
    for (const trigger of reactive) {
      if (!listensTo(trigger, row) || !matches(trigger.event_type, trigger.event_filter, event)) continue;
      // ignore_own_results: the trigger does not react to the end of an execution it started itself.
      if (trigger.ignore_own_results && (await own()).has(trigger.name)) continue;
      // The chain guard: an event this deep in a chain of workflows emitting events starts nothing (recorded as failed).
      const outcome = chainStop(event, context.maxChainDepth) ?? await start(trigger, event);
      records.push(dispatchRecord(tenantId, trigger, 'event', outcome, { id: event.id, seq: row.seq }));
    }
    for (const trigger of deadman) {
      if (!listensTo(trigger, row)) continue;
      if (await observeDeadman(context, trx, tenantId, trigger, event, records)) changedDeadman.add(trigger);
    }
  });
  for (const trigger of changedDeadman) await saveDeadman(context, trx, tenantId, trigger);
  // The dispatch records and the cursor's move go with the batch's starts: one statement.
  const last = rows.at(-1)!;
  const advance = cursorsStore.advanceQueries(tenantId, { xid: last.xid, seq: last.seq }, records);
  if (batch) await batch.flush(advance);
  else await cursorsStore.advance(trx, tenantId, { xid: last.xid, seq: last.seq }, records);
  return { covered: rows.length, waiting };
}

/**
 * Pauses while committed events wait beyond the horizon (a transaction older
 * than them still runs: usually one that ends within milliseconds), in ms.
 */
const HORIZON_PAUSES = [1, 1, 1, 2, 2, 4, 4, 8];
/** Beyond those pauses the job hands over to a successor that runs later, from this delay doubling up to the last. */
const HORIZON_RETRY_MS = [20, 1000];
/**
 * Caught up, a drain waits for the next wake from this process before it ends
 * (a wake then costs no job): LINGER_MS while events keep coming (a wake came
 * during the drain), FIRST_LINGER_MS otherwise, since a lingering drain holds
 * one of the process's workers.
 */
const LINGER_MS = 50;
const FIRST_LINGER_MS = 5;

/**
 * The job: drains until caught up (lingering while events keep coming), or for
 * one slice, after which it hands over to a fresh job (other tenants get the
 * worker, and a shutdown does not wait on a long drain). Caught up with
 * events committed beyond the horizon, it pauses briefly, then hands over to
 * a successor that runs later, so a long transaction elsewhere does not hold
 * a worker. Batches start workflows
 * without savepoints; a batch that fails is redone at once with them (so a
 * trigger whose start fails for good costs one redo, and is recorded), and a
 * failure then is left to graphile-worker's retry. The successor is enqueued
 * before this job completes: a crash in between retries this job.
 */
export async function drain(
  context: EventsContext, tenantId: string, job: Pick<JobContext, 'signal' | 'attempt'>, waitedMs = 0,
): Promise<void> {
  const until = Date.now() + context.options.dispatchSliceMs;
  const batchSize = context.options.dispatchBatchSize;
  let safe = job.attempt > 1;
  let pauses = 0;
  let flowing = false;
  const drainState = context.waker.draining(tenantId);
  try {
    for (;;) {
      let result: BatchResult;
      try {
        result = await context.withTenant(tenantId, (trx) => dispatchBatch(context, trx, tenantId, { safe }));
      } catch (err) {
        if (safe) throw err;
        safe = true;
        continue;
      }
      if (result.covered > 0) {
        pauses = 0;
        waitedMs = 0;
      }
      const more = result.covered === batchSize;
      const overdue = Date.now() >= until || job.signal.aborted;
      if (more && !overdue) continue;
      if (more) return await enqueueDispatch(context.jobs, tenantId);
      if (result.waiting) {
        if (pauses < HORIZON_PAUSES.length && !overdue) {
          // An emitter's commit (a wake) may be what moves the horizon: read again at once then.
          if (await drainState.nextWake(HORIZON_PAUSES[pauses++])) flowing = true;
          continue;
        }
        const delay = Math.min(HORIZON_RETRY_MS[1], Math.max(HORIZON_RETRY_MS[0], waitedMs * 2));
        return await enqueueDispatch(context.jobs, tenantId, { runAt: new Date(Date.now() + delay), waitedMs: delay });
      }
      if (!overdue && drainState.takeWake()) {
        flowing = true;
        continue;
      }
      // Wait a little for the next wake rather than end: longer while events keep coming.
      if (!overdue && await drainState.nextWake(flowing ? LINGER_MS : FIRST_LINGER_MS)) {
        flowing = true;
        continue;
      }
      return;
    }
  } finally {
    drainState.end();
  }
}
