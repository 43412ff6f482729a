// `approvals.notify`: enqueued in the transaction that settles a case (key
// `approvals.notify:<case>`); hands the outcome to the waiting workflow or
// chat turn (peers/waiters.ts). Idempotent: a waiter that no longer waits ignores it.
import type { CoreServices, FastTaskHandler } from 'agent-platform/sdk';
import { notifyWaiters, type Peers } from '../peers/waiters.ts';

export interface NotifyPayload {
  tenant_id: string;
  case_id: string;
}

export function notifyTask(core: Pick<CoreServices, 'withTenant'>, peers: Peers): FastTaskHandler {
  return async (payload: NotifyPayload) => {
    await notifyWaiters(core, peers, payload.tenant_id, payload.case_id);
  };
}
