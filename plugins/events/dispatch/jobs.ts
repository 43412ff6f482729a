// Names of this plugin's jobs, queues and job keys. Job keys are global in
// graphile-worker, so each carries the tenant.
import type { JobsApi, TenantTransaction } from 'agent-platform/sdk';

/** Drains a tenant's undispatched events (one at a time per tenant: its queue). */
export const DISPATCH_TASK = 'events.dispatch';
/** A deadman trigger's timer: fires when its watch window ends in silence. */
export const DEADMAN_TASK = 'events.deadman_fire';
/** A backfill requested from the CLI, run by a server worker. */
export const BACKFILL_TASK = 'events.backfill';
/** Wakes the dispatchers of streams left behind (pg-boss cron, once a minute, and at start). */
export const SWEEP_TASK = 'events.sweep';
/** Daily retention clean-up (pg-boss cron). */
export const RETENTION_TASK = 'events.retention';

/**
 * The tenant's dispatcher queue: dispatch batches, deadman timers and CLI
 * backfills run there one at a time, in order of their run time, so a deadman
 * timer runs only after every event emitted before its deadline was dispatched.
 */
export const tenantQueue = (tenantId: string) => `events:${tenantId}`;
export const dispatchKey = (tenantId: string) => `events:dispatch:${tenantId}`;
export const deadmanKey = (tenantId: string, trigger: string) => `events:deadman:${tenantId}:${trigger}`;

/**
 * The dispatcher retries until it succeeds: an event is acknowledged only
 * after its dispatch, so giving up would strand the tenant's stream.
 * graphile-worker backs off exponentially, to about 6 h between attempts.
 */
export const DISPATCH_MAX_ATTEMPTS = 1000;

/**
 * Dispatch jobs go ahead of other due jobs (graphile-worker runs the lowest
 * priority first; the default is 0). A dispatcher that hands over after its
 * slice enqueues its successor with run_at now: at equal priority that job
 * waited behind every step job the batch had just started (thousands under
 * load), so the stream stalled while its backlog grew.
 */
export const DISPATCH_PRIORITY = -1;

/** What a dispatcher job carries: its tenant, and how long its predecessor waited on the visibility horizon. */
export type DispatchPayload = {
  tenant_id: string;
  waited_ms?: number;
};

/**
 * Queues the tenant's dispatcher (replacing a pending one; beside a running
 * one, which it then follows), in `trx` when given, at `runAt` when given.
 */
export async function enqueueDispatch(
  jobs: Pick<JobsApi, 'enqueue'>, tenantId: string, options: { trx?: TenantTransaction; runAt?: Date; waitedMs?: number } = {},
): Promise<void> {
  const payload: DispatchPayload = { tenant_id: tenantId, ...(options.waitedMs ? { waited_ms: options.waitedMs } : {}) };
  await jobs.enqueue(DISPATCH_TASK, payload, {
    trx: options.trx, runAt: options.runAt, queue: tenantQueue(tenantId), jobKey: dispatchKey(tenantId), maxAttempts: DISPATCH_MAX_ATTEMPTS, priority: DISPATCH_PRIORITY,
  });
}
