// `mail.deliver`: one delivery attempt of one outbox message, enqueued in the
// transaction that writes (or retries) it, and again at the time of each
// retry. Idempotent: the attempt claims the message first, and a message that
// is not due (sent, dead, claimed by another attempt) is left alone.
import type { FastTaskHandler, TenantTransaction } from 'agent-platform/sdk';
import type { Delivery } from '../services/delivery.ts';

export const DELIVER_TASK = 'mail.deliver';

export interface DeliverPayload {
  tenant_id: string;
  message_id: number;
}

/** The job key of a message's next attempt: one pending job per message. */
export const deliverKey = (id: number) => `mail.deliver:${id}`;

/** enqueue's arguments after the task name: the payload, and the options (in `trx`, keyed, at `runAt`). */
export function deliverJob(tenantId: string, id: number, trx: TenantTransaction, runAt?: Date) {
  const payload: DeliverPayload = { tenant_id: tenantId, message_id: id };
  return [payload as unknown as Record<string, unknown>, { trx, jobKey: deliverKey(id), maxAttempts: 5, ...(runAt ? { runAt } : {}) }] as const;
}

export function deliverTask(delivery: Delivery): FastTaskHandler {
  return async (payload: DeliverPayload) => {
    await delivery.deliver(payload.tenant_id, payload.message_id);
  };
}
