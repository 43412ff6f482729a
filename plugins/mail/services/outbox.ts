// The outbox as callers and operators see it: write a message in the
// caller's transaction (its delivery job enqueued in the same transaction, so
// it runs after the commit and never for a rollback), list a tenant's
// messages, and put a held or dead one back in line.
import type { CoreServices, TenantTransaction } from 'agent-platform/sdk';
import type { OutboxMessage, OutgoingMail } from '../api.ts';
import { checkedMail } from '../checks/message.ts';
import { mailErrors } from '../errors.ts';
import { outboxStore, type OutboxFilter } from '../store/outbox.ts';
import { DELIVER_TASK, deliverJob } from '../tasks/mail.deliver.ts';

export function createOutboxService(core: Pick<CoreServices, 'withTenant' | 'jobs' | 'clock'>, configured: boolean) {
  return {
    async send(trx: TenantTransaction, tenantId: string, mail: OutgoingMail): Promise<OutboxMessage> {
      const checked = checkedMail(mail);
      const now = core.clock.now();
      const inserted = await outboxStore.insert(trx, {
        tenant_id: tenantId, recipient: checked.to, subject: checked.subject, body_text: checked.text, body_html: checked.html ?? null,
        state: configured ? 'pending' : 'held', next_attempt_at: configured ? now : null,
        origin: checked.origin, origin_id: checked.originId, created_at: now, updated_at: now,
      });
      if (!inserted) return (await outboxStore.findByOrigin(trx, checked.origin, checked.originId, checked.to))!;
      if (configured) await core.jobs.enqueue(DELIVER_TASK, ...deliverJob(tenantId, inserted.id, trx));
      return inserted;
    },

    list: (tenantId: string, filter: OutboxFilter, skip: number, limit: number) =>
      core.withTenant(tenantId, (trx) => outboxStore.list(trx, filter, skip, limit)),

    /** A held or dead message back to pending with its attempts from zero; 409 without a transport or for another state. */
    retry: (tenantId: string, id: number) => core.withTenant(tenantId, async (trx) => {
      const row = await outboxStore.find(trx, id);
      if (!row) throw mailErrors.notFound(id);
      if (row.state !== 'held' && row.state !== 'dead') throw mailErrors.notRetryable(row.state);
      if (!configured) throw mailErrors.notConfigured();
      const requeued = await outboxStore.requeue(trx, id, core.clock.now());
      if (!requeued) throw mailErrors.notRetryable(row.state);
      await core.jobs.enqueue(DELIVER_TASK, ...deliverJob(tenantId, id, trx));
      return requeued;
    }),
  };
}

export type OutboxService = ReturnType<typeof createOutboxService>;
