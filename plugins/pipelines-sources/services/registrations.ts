// The pattern registry over HTTP: `register` adds
// or replaces one preset (the operator's PATTERN_ADMIN_SECRET); `reconcile`
// makes the presets a registry owns match its complete list (a webhook signed
// with PATTERN_WEBHOOK_SECRET): listed ones are created or updated, the ones
// it owned and no longer lists are removed. Presets registered by hand are
// not touched by a reconcile. A removed preset's sources fail clearly
// (PATTERN_NOT_FOUND) until it comes back.
//
// The reconcile webhook is a Standard Webhooks message (the SDK's verifier,
// the one the workflow resume webhook uses): its id and timestamp are signed
// with the body, a timestamp more than 5 minutes from now is refused, and an
// id accepted once is refused while its timestamp is fresh (the ids are kept
// in PostgreSQL, so a replay to another process is refused too). The id is
// recorded in the transaction that applies the list: a refused or failed
// reconcile changes nothing and leaves its id unused.
import { timingSafeEqual } from 'node:crypto';
import {
  badRequest, conflict, domainError, STANDARD_WEBHOOK_TOLERANCE_SECONDS, unauthorized, verifyStandardWebhook, webhookKey, webhookTimestampFreshness,
} from 'agent-platform/sdk';
import type { SourcesContext } from './context.ts';
import { secretsFrom } from '../options.ts';
import { checkPreset } from '../patterns/presets.ts';
import { registrationsStore, type Registration } from '../store/registrations.ts';
import { webhookIdsStore } from '../store/webhook-ids.ts';

const MAX_ID_LENGTH = 255;
const PRINTABLE = /^[\x20-\x7e]+$/;

/** A reconcile message whose signature and timestamp were checked: its id is still to be claimed. */
export interface VerifiedMessage {
  id: string;
  /** When its timestamp leaves the freshness window: the id is kept until then. */
  expiresAt: Date;
}

export type RegistrationInput = Omit<Registration, 'managed_by'>;

function sameSecret(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createRegistrationService(context: SourcesContext) {
  const { core, patterns } = context;
  const { patternAdminSecret: adminSecret, patternWebhookSecret: webhookSecret } = secretsFrom(core.config.env);
  const webhookSecretKey = webhookSecret ? webhookKey(webhookSecret) : undefined;
  const disabled = (setting: string) => domainError(503, `The pattern registry is off: ${setting} is not set`, 'PATTERN_REGISTRY_DISABLED');

  function check(input: RegistrationInput): void {
    if (patterns.base(input.id)) throw badRequest(`"${input.id}" is a built-in or plugin pattern`, 'PATTERN_ID_TAKEN');
    checkPreset({ ...input, managed_by: 'register' }, patterns.base(input.base_pattern));
  }

  return {
    async register(secret: string | undefined, input: RegistrationInput) {
      if (!adminSecret) throw disabled('PATTERN_ADMIN_SECRET');
      if (!sameSecret(secret, adminSecret)) throw unauthorized('X-Pattern-Admin-Secret is missing or wrong', 'PATTERN_SECRET_INVALID');
      check(input);
      await registrationsStore.upsert(core.db, { ...input, managed_by: 'register' });
      await patterns.refresh();
      return { id: input.id, managed_by: 'register' };
    },

    /**
     * Verifies a Standard Webhooks message (webhook-id, webhook-timestamp,
     * webhook-signature over `id.timestamp.body`) before anything is read
     * from the body, and its timestamp's freshness; the id is claimed by
     * `reconcile`.
     */
    verify(header: (name: string) => string | undefined, body: Buffer): VerifiedMessage {
      if (!webhookSecretKey) throw disabled('PATTERN_WEBHOOK_SECRET');
      const message = verifyStandardWebhook(webhookSecretKey, body, header);
      if (!message?.id || !message.timestamp) {
        throw unauthorized('webhook-id, webhook-timestamp and webhook-signature (Standard Webhooks, keyed with PATTERN_WEBHOOK_SECRET) are missing or do not match the body', 'PATTERN_SIGNATURE_INVALID');
      }
      const nowMs = core.clock.now().getTime();
      const verdict = webhookTimestampFreshness(message.timestamp, nowMs);
      if (verdict !== 'fresh') {
        throw unauthorized(`webhook-timestamp is ${verdict === 'too_old' ? 'older' : 'later'} than ${STANDARD_WEBHOOK_TOLERANCE_SECONDS / 60} minutes from now`, 'PATTERN_WEBHOOK_TIMESTAMP_INVALID');
      }
      if (message.id.length > MAX_ID_LENGTH || !PRINTABLE.test(message.id)) {
        throw badRequest(`webhook-id must be printable ASCII of at most ${MAX_ID_LENGTH} characters`, 'PATTERN_WEBHOOK_ID_INVALID');
      }
      return { id: message.id, expiresAt: new Date((Number(message.timestamp) + STANDARD_WEBHOOK_TOLERANCE_SECONDS) * 1000) };
    },

    /** Applies the list, all or nothing, in the transaction that claims the message's id (409 PATTERN_WEBHOOK_REPLAYED when it was claimed before). */
    async reconcile(message: VerifiedMessage, list: RegistrationInput[]) {
      const ids = list.map((item) => item.id);
      if (new Set(ids).size !== ids.length) throw badRequest('A pattern id is listed twice', 'PATTERN_PRESET_INVALID');
      list.forEach(check);
      const removed = await core.db.transaction().execute(async (trx) => {
        if (!(await webhookIdsStore.claim(trx, message.id, core.clock.now(), message.expiresAt))) {
          throw conflict('This webhook-id was accepted before: a message is applied once', 'PATTERN_WEBHOOK_REPLAYED');
        }
        for (const item of list) await registrationsStore.upsert(trx, { ...item, managed_by: 'reconcile' });
        return (await registrationsStore.deleteManagedExcept(trx, ids)).map((row) => row.id);
      });
      await patterns.refresh();
      return { upserted: ids, removed };
    },
  };
}

export type RegistrationService = ReturnType<typeof createRegistrationService>;
