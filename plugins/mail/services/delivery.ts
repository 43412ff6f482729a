// Delivery of the outbox. An attempt claims its message (state `sending`,
// leased until next_attempt_at), sends it outside any transaction, then
// marks it `sent` as soon as the SMTP server has accepted it, or `failed`
// (the next attempt after an exponential backoff) or `dead` (after
// maxAttempts). A message marked sent is never claimed again. The edge of
// at-least-once: a process that dies after the server accepted a message and
// before it is marked leaves it `sending`; once its lease runs out the sweep
// sends it again.
import type { CoreServices } from 'agent-platform/sdk';
import { EVENT_SOURCE, MAIL_DEAD, MAIL_SENT } from '../event-types.ts';
import type { MailOptions } from '../options.ts';
import { outboxStore } from '../store/outbox.ts';
import { DELIVER_TASK, deliverJob, deliverKey } from '../tasks/mail.deliver.ts';
import type { SmtpTransport } from '../transport/smtp.ts';

/** Due messages one sweep hands to jobs per tenant; the rest wait for the next sweep. */
const SWEEP_BATCH = 500;

/** How long an attempt holds its claim: past it, the message is due again (a crashed attempt). */
export const leaseSeconds = (options: MailOptions) => Math.max(300, 4 * options.smtpTimeoutSeconds);

/** Seconds before attempt `attempts + 1`: retryBaseSeconds doubled for each attempt made after the first, at most retryMaxSeconds. */
export const backoffSeconds = (options: MailOptions, attempts: number) =>
  Math.min(options.retryMaxSeconds, options.retryBaseSeconds * 2 ** Math.min(attempts - 1, 30));

type Core = Pick<CoreServices, 'withTenant' | 'jobs' | 'events' | 'clock' | 'logger' | 'tenants'>;

export function createDelivery(core: Core, options: MailOptions, transport: SmtpTransport | undefined) {
  const later = (from: Date, seconds: number) => new Date(from.getTime() + seconds * 1000);

  return {
    /** One attempt of one message, when it is due; nothing otherwise. */
    async deliver(tenantId: string, id: number): Promise<void> {
      if (!transport) return;
      const claimedAt = core.clock.now();
      const claimed = await core.withTenant(tenantId, (trx) => outboxStore.claim(trx, id, claimedAt, later(claimedAt, leaseSeconds(options))));
      if (!claimed) return;
      const event = { message_id: claimed.id, origin: claimed.origin, origin_id: claimed.origin_id, attempts: claimed.attempts };
      let failure: string | undefined;
      try {
        await transport.send({ from: options.from, to: claimed.recipient, subject: claimed.subject, text: claimed.body_text, html: claimed.body_html });
      } catch (err) {
        failure = (err as Error).message;
      }
      const now = core.clock.now();
      if (failure === undefined) {
        await core.withTenant(tenantId, async (trx) => {
          if (await outboxStore.markSent(trx, id, now)) await core.events.emit(trx, tenantId, { type: MAIL_SENT, source: EVENT_SOURCE, data: event });
        });
        return;
      }
      const dead = claimed.attempts >= options.maxAttempts;
      const nextAttemptAt = dead ? null : later(now, backoffSeconds(options, claimed.attempts));
      core.logger.warn({ tenant: tenantId, message_id: id, attempt: claimed.attempts, dead, error: failure }, 'mail: delivery attempt failed');
      await core.withTenant(tenantId, async (trx) => {
        const marked = await outboxStore.markFailed(trx, id, now, { state: dead ? 'dead' : 'failed', error: failure, nextAttemptAt });
        if (!marked) return;
        if (dead) await core.events.emit(trx, tenantId, { type: MAIL_DEAD, source: EVENT_SOURCE, data: { ...event, last_error: failure } });
        else await core.jobs.enqueue(DELIVER_TASK, ...deliverJob(tenantId, id, trx, nextAttemptAt!));
      });
    },

    /** Enqueues a delivery for every due message of every tenant; how many. */
    async sweep(): Promise<number> {
      if (!transport) return 0;
      let enqueued = 0;
      await core.tenants.each((tenantId) => core.withTenant(tenantId, async (trx) => {
        const due = await outboxStore.due(trx, core.clock.now(), SWEEP_BATCH);
        if (due.length === 0) return;
        await core.jobs.enqueueMany(due.map(({ id }) => ({
          name: DELIVER_TASK, payload: { tenant_id: tenantId, message_id: id }, jobKey: deliverKey(id), maxAttempts: 5,
        })), trx);
        enqueued += due.length;
      }));
      if (enqueued > 0) core.logger.info({ enqueued }, 'mail: sweep found due messages');
      return enqueued;
    },
  };
}

export type Delivery = ReturnType<typeof createDelivery>;
