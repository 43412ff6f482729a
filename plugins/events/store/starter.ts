// Starts a trigger's workflow for one event, inside the caller's transaction:
// resolve the dedup key and claim its window, map the inputs, call the
// workflows plugin. Two ways: `queueStart` adds the start to the dispatch
// batch's start batch (written at once, any failure thrown), `startForTrigger`
// starts it alone under a savepoint, so a start that fails for good (an
// unknown workflow, bad inputs) is rolled back alone, its dedup claim with it,
// and recorded; anything else (the database went away) is thrown, and the
// whole dispatch transaction is retried.
import { sql } from 'kysely';
import { parseActor, type TenantTransaction } from 'agent-platform/sdk';
import type { StartBatch, WorkflowsApi, WorkflowOrigin } from '../../workflows/api.ts';
import { dedupKeyOf, mapInputs } from '../triggers/matching.ts';
import { dedupStore, type NewDispatch } from './triggers.ts';
import type { CloudEvent } from '../stream/cloudevent.ts';
import type { DispatchOrigin, DispatchStatus, TriggerRow } from './tables.ts';

export interface StartDeps {
  workflows: () => WorkflowsApi;
}

export interface StartOutcome {
  status: Exclude<DispatchStatus, 'missed'>;
  dedup_key: string | null;
  execution_id?: string;
  error?: string;
}

const ORIGIN_TYPE: Record<DispatchOrigin, WorkflowOrigin['type']> = {
  event: 'trigger', schedule: 'schedule', deadman: 'deadman', backfill: 'backfill',
};

/**
 * Failures that a retry would repeat: domain errors below 500, and Postgres
 * data, integrity, syntax and raised errors (SQLSTATE classes 22, 23, 42, P0).
 */
export function isPermanentFailure(err: unknown): boolean {
  const boom = err as { isBoom?: boolean; output?: { statusCode: number } };
  if (boom?.isBoom) return (boom.output?.statusCode ?? 500) < 500;
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && /^(22|23|42|P0)/.test(code);
}

function messageOf(err: unknown): string {
  const boom = err as { isBoom?: boolean; output?: { payload: { message: string; code?: string } } };
  if (boom?.isBoom && boom.output) return boom.output.payload.code ? `${boom.output.payload.code}: ${boom.output.payload.message}` : boom.output.payload.message;
  return err instanceof Error ? err.message : String(err);
}

/**
 * A stream event's start (a trigger, a backfill) keeps the event's chain
 * depth: its workflow's events are one link deeper. The execution acts for the
 * trigger's person (its creator or last editor), when one is recorded.
 */
function originOf(trigger: TriggerRow, origin: DispatchOrigin, event: CloudEvent): WorkflowOrigin {
  const actor = parseActor(trigger.acts_for);
  return {
    type: ORIGIN_TYPE[origin], id: trigger.name,
    ...(origin === 'event' || origin === 'backfill' ? { chaindepth: event.chaindepth ?? 0 } : {}),
    ...(actor ? { acting_for: actor } : {}),
  };
}

/** The trigger's dedup key and inputs for this event, or the failure of a template refused at run time. */
function resolve(trigger: TriggerRow, event: CloudEvent): { dedupKey: string | null; inputs: Record<string, unknown> } | StartOutcome {
  try {
    return { dedupKey: dedupKeyOf(trigger.dedup_key, event), inputs: mapInputs(trigger.input_mapping, event) };
  } catch (err) {
    // A template refused at run time (over the length limit) fails this start only.
    if (!isPermanentFailure(err)) throw err;
    return { status: 'failed', dedup_key: null, error: messageOf(err).slice(0, 1000) };
  }
}

/** Claims the key's dedup window for this event: false when an earlier event's window covers it. */
const claim = (trx: TenantTransaction, tenantId: string, trigger: TriggerRow, event: CloudEvent, dedupKey: string) =>
  dedupStore.claim(trx, {
    tenant_id: tenantId, trigger_name: trigger.name, dedup_key: dedupKey, time: new Date(event.time), event_id: event.id,
    windowSeconds: trigger.dedup_window_seconds,
  });

/**
 * The dispatcher's fast path: claims the dedup window and adds the start to
 * the batch, which writes every start of the dispatch batch at once (see
 * plugins/workflows/execution/start-batch.ts). Any failure (an unknown workflow) is
 * thrown: the caller rolls the batch back and redoes it with startForTrigger,
 * one savepoint per start, so that the failure is recorded alone.
 */
export async function queueStart(
  trx: TenantTransaction, tenantId: string, trigger: TriggerRow, event: CloudEvent, origin: DispatchOrigin, batch: StartBatch,
): Promise<StartOutcome> {
  const resolved = resolve(trigger, event);
  if ('status' in resolved) return resolved;
  const { dedupKey, inputs } = resolved;
  if (dedupKey !== null && !(await claim(trx, tenantId, trigger, event, dedupKey))) return { status: 'deduplicated', dedup_key: dedupKey };
  return { status: 'started', dedup_key: dedupKey, execution_id: batch.add(trigger.target_name, inputs, originOf(trigger, origin, event)).execution_id };
}

/**
 * One start under a savepoint: a start that fails for good (an unknown
 * workflow, bad inputs) is rolled back alone, its dedup claim with it, and
 * recorded as failed; anything else (the database went away) is thrown.
 */
export async function startForTrigger(
  deps: StartDeps, trx: TenantTransaction, tenantId: string, trigger: TriggerRow, event: CloudEvent, origin: DispatchOrigin,
): Promise<StartOutcome> {
  const resolved = resolve(trigger, event);
  if ('status' in resolved) return resolved;
  const { dedupKey, inputs } = resolved;
  await sql`SAVEPOINT trigger_start`.execute(trx);
  try {
    if (dedupKey !== null && !(await claim(trx, tenantId, trigger, event, dedupKey))) {
      await sql`RELEASE SAVEPOINT trigger_start`.execute(trx);
      return { status: 'deduplicated', dedup_key: dedupKey };
    }
    const started = await deps.workflows().start(trx, tenantId, trigger.target_name, inputs, originOf(trigger, origin, event));
    await sql`RELEASE SAVEPOINT trigger_start`.execute(trx);
    return { status: 'started', dedup_key: dedupKey, execution_id: started.execution_id };
  } catch (err) {
    if (!isPermanentFailure(err)) throw err;
    await sql`ROLLBACK TO SAVEPOINT trigger_start`.execute(trx);
    await sql`RELEASE SAVEPOINT trigger_start`.execute(trx);
    return { status: 'failed', dedup_key: dedupKey, error: messageOf(err).slice(0, 1000) };
  }
}

/** The dispatch row recording an outcome. */
export function dispatchRecord(
  tenantId: string, trigger: TriggerRow, origin: DispatchOrigin, outcome: StartOutcome | { status: 'missed'; error: string },
  event?: { id: string; seq?: number },
): NewDispatch {
  return {
    tenant_id: tenantId,
    trigger_name: trigger.name,
    origin,
    status: outcome.status,
    event_id: event?.id ?? null,
    event_seq: event?.seq ?? null,
    dedup_key: 'dedup_key' in outcome ? outcome.dedup_key : null,
    execution_id: 'execution_id' in outcome ? (outcome.execution_id ?? null) : null,
    error: outcome.error ?? null,
  };
}
