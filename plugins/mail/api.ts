// What the mail plugin exposes to other plugins (register's `mail` dependency,
// usually optional) and the shape of an outbox message. Others import only these types.
import type { TenantTransaction } from 'agent-platform/sdk';

/**
 * held: no SMTP transport is configured (kept until an operator retries it);
 * pending: waiting for its first attempt; sending: an attempt is under way;
 * failed: the last attempt failed, another follows; sent; dead: every attempt
 * failed (kept until an operator retries it).
 */
export type OutboxState = 'held' | 'pending' | 'sending' | 'failed' | 'sent' | 'dead';

export interface OutgoingMail {
  /** One address (`ana@example.org`). */
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Who writes it, `<plugin>.<what>` (e.g. `occurrences.message`). */
  origin: string;
  /** What it is about in the origin's terms (a message id, a case id). With origin and `to`, it names the message: writing it again changes nothing. */
  originId: string;
}

export interface OutboxMessage {
  id: number;
  recipient: string;
  subject: string;
  state: OutboxState;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date | null;
  sent_at: Date | null;
  origin: string;
  origin_id: string;
  created_at: Date;
  updated_at: Date;
}

export interface MailApi {
  /**
   * Writes a message to the tenant's outbox in the caller's transaction: it is
   * delivered after the commit (nothing for a rollback), by a job, with
   * retries. Without an SMTP transport it is kept `held`. A message with the
   * same origin, origin id and recipient is not written twice (the existing
   * one is returned). 400 `MAIL_INVALID` for a bad address or an oversized message.
   */
  send(trx: TenantTransaction, tenantId: string, mail: OutgoingMail): Promise<OutboxMessage>;
  /** Whether an SMTP transport is configured (without one, messages are held). */
  readonly configured: boolean;
}

declare module '@hapi/hapi' {
  interface PluginProperties {
    mail: { api: MailApi };
  }
}
