// The events this plugin emits (source `/integrations`), one per function:
//   definition.created  {definition_type: 'function', name, version, spec_id, spec_name, operation}
//   definition.updated  {... , changed_fields, previous_name?, status}  (a re-sync that drops an
//                       operation marks its function removed: changed_fields ['status'], status 'removed')
//   definition.deleted  {definition_type: 'function', name, version, spec_id, spec_name}  (the spec was deleted)
// They are emitted in the transaction that changes the functions. The CLI has
// no event backend: it enqueues them, in its transaction, as one
// `integrations.announce` job that the server's workers emit.
import type { EventInput, EventsApi, JobsApi, TenantTransaction } from 'agent-platform/sdk';

export const EVENT_SOURCE = '/integrations';
export const ANNOUNCE_TASK = 'integrations.announce';

export type Announce = (trx: TenantTransaction, tenantId: string, events: EventInput[]) => Promise<void>;

export function definitionEvent(type: 'definition.created' | 'definition.updated' | 'definition.deleted', data: Record<string, unknown>): EventInput {
  return { type, source: EVENT_SOURCE, data: { definition_type: 'function', ...data } };
}

/** In the server: straight into the event stream, inside the caller's transaction. */
export function emitNow(events: EventsApi): Announce {
  return async (trx, tenantId, list) => {
    for (const event of list) await events.emit(trx, tenantId, event);
  };
}

/** In the CLI: one job, enqueued in the same transaction, that the server emits. */
export function emitLater(jobs: Pick<JobsApi, 'enqueue'>): Announce {
  return async (trx, tenantId, list) => {
    if (list.length > 0) await jobs.enqueue(ANNOUNCE_TASK, { tenant_id: tenantId, events: list }, { trx });
  };
}
