// SQL of the outbox; every query in a tenant transaction (row-level security
// keeps each tenant to its own messages).
import type { TenantTransaction } from 'agent-platform/sdk';
import type { OutboxMessage, OutboxState } from '../api.ts';
import './tables.ts';

const COLUMNS = [
  'id', 'recipient', 'subject', 'state', 'attempts', 'last_error', 'next_attempt_at', 'sent_at', 'origin', 'origin_id', 'created_at', 'updated_at',
] as const;

/** The states a delivery may claim once their next_attempt_at has come (for `sending`: its lease ran out). */
const DUE: OutboxState[] = ['pending', 'sending', 'failed'];

export interface NewMessage {
  tenant_id: string;
  recipient: string;
  subject: string;
  body_text: string;
  body_html: string | null;
  state: 'held' | 'pending';
  next_attempt_at: Date | null;
  origin: string;
  origin_id: string;
  created_at: Date;
  updated_at: Date;
}

/** A claimed message, with what is sent. */
export interface ClaimedMessage extends OutboxMessage {
  body_text: string;
  body_html: string | null;
}

export interface OutboxFilter {
  state?: OutboxState;
  origin?: string;
}

export const outboxStore = {
  /** The new message, or undefined when one with its origin, origin id and recipient exists. */
  insert: (trx: TenantTransaction, values: NewMessage): Promise<OutboxMessage | undefined> =>
    trx.insertInto('mail_outbox').values(values)
      .onConflict((oc) => oc.columns(['tenant_id', 'origin', 'origin_id', 'recipient']).doNothing())
      .returning(COLUMNS).executeTakeFirst(),

  findByOrigin: (trx: TenantTransaction, origin: string, originId: string, recipient: string): Promise<OutboxMessage | undefined> =>
    trx.selectFrom('mail_outbox').select(COLUMNS)
      .where('origin', '=', origin).where('origin_id', '=', originId).where('recipient', '=', recipient).executeTakeFirst(),

  find: (trx: TenantTransaction, id: number): Promise<OutboxMessage | undefined> =>
    trx.selectFrom('mail_outbox').select(COLUMNS).where('id', '=', id).executeTakeFirst(),

  async list(trx: TenantTransaction, filter: OutboxFilter, skip: number, limit: number): Promise<{ items: OutboxMessage[]; total: number }> {
    let query = trx.selectFrom('mail_outbox');
    if (filter.state) query = query.where('state', '=', filter.state);
    if (filter.origin) query = query.where('origin', '=', filter.origin);
    const [items, count] = await Promise.all([
      query.select(COLUMNS).orderBy('id', 'desc').offset(skip).limit(limit).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.total) };
  },

  /**
   * Takes a due message for one attempt: `sending`, one more attempt, its
   * lease until `leaseUntil`. Undefined when it is not due (sent, held, dead,
   * or claimed by another delivery whose lease runs): of two deliveries, one claims it.
   */
  claim: (trx: TenantTransaction, id: number, now: Date, leaseUntil: Date): Promise<ClaimedMessage | undefined> =>
    trx.updateTable('mail_outbox')
      .set((eb) => ({ state: 'sending', attempts: eb('attempts', '+', 1), next_attempt_at: leaseUntil, updated_at: now }))
      .where('id', '=', id).where('state', 'in', DUE).where('next_attempt_at', '<=', now)
      .returning([...COLUMNS, 'body_text', 'body_html']).executeTakeFirst(),

  markSent: (trx: TenantTransaction, id: number, now: Date) =>
    trx.updateTable('mail_outbox').set({ state: 'sent', sent_at: now, next_attempt_at: null, last_error: null, updated_at: now })
      .where('id', '=', id).where('state', '=', 'sending').returning(COLUMNS).executeTakeFirst(),

  /** The end of a failed attempt: `failed` with the next attempt's time, or `dead`. */
  markFailed: (trx: TenantTransaction, id: number, now: Date, failure: { state: 'failed' | 'dead'; error: string; nextAttemptAt: Date | null }) =>
    trx.updateTable('mail_outbox').set({ state: failure.state, last_error: failure.error, next_attempt_at: failure.nextAttemptAt, updated_at: now })
      .where('id', '=', id).where('state', '=', 'sending').returning(COLUMNS).executeTakeFirst(),

  /** Messages whose attempt is due (a lost job's, a crashed delivery's), oldest first. */
  due: (trx: TenantTransaction, now: Date, limit: number): Promise<{ id: number }[]> =>
    trx.selectFrom('mail_outbox').select('id').where('state', 'in', DUE).where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at').limit(limit).execute(),

  /** A held or dead message back to pending, its attempts counted again from zero. */
  requeue: (trx: TenantTransaction, id: number, now: Date) =>
    trx.updateTable('mail_outbox').set({ state: 'pending', attempts: 0, next_attempt_at: now, updated_at: now })
      .where('id', '=', id).where('state', 'in', ['held', 'dead']).returning(COLUMNS).executeTakeFirst(),
};
