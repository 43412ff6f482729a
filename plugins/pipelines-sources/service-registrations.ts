// The pattern registry over HTTP (spec document 3, 4.2, 5.5): `register` adds
// or replaces one preset (the operator's PATTERN_ADMIN_SECRET); `reconcile`
// makes the presets a registry owns match its complete list (a webhook signed
// with PATTERN_WEBHOOK_SECRET): listed ones are created or updated, the ones
// it owned and no longer lists are removed. Presets registered by hand are
// not touched by a reconcile. A removed preset's sources fail clearly
// (PATTERN_NOT_FOUND) until it comes back.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest, domainError, unauthorized } from 'agent-platform/sdk';
import type { SourcesContext } from './context.ts';
import { checkPreset } from './patterns/presets.ts';
import { registrationsStore, type Registration } from './store/registrations.ts';

export type RegistrationInput = Omit<Registration, 'managed_by'>;

function sameSecret(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createRegistrationService(context: SourcesContext) {
  const { core, patterns } = context;
  const adminSecret = core.config.env.PATTERN_ADMIN_SECRET || undefined;
  const webhookSecret = core.config.env.PATTERN_WEBHOOK_SECRET || undefined;
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

    /** Verifies the signature of the raw body (X-Pattern-Signature: sha256=<hex HMAC>) before anything is read from it. */
    verify(signature: string | undefined, body: Buffer): void {
      if (!webhookSecret) throw disabled('PATTERN_WEBHOOK_SECRET');
      const expected = `sha256=${createHmac('sha256', webhookSecret).update(body).digest('hex')}`;
      if (!sameSecret(signature, expected)) throw unauthorized('X-Pattern-Signature is missing or does not match the body', 'PATTERN_SIGNATURE_INVALID');
    },

    async reconcile(list: RegistrationInput[]) {
      const ids = list.map((item) => item.id);
      if (new Set(ids).size !== ids.length) throw badRequest('A pattern id is listed twice', 'PATTERN_PRESET_INVALID');
      list.forEach(check);
      for (const item of list) await registrationsStore.upsert(core.db, { ...item, managed_by: 'reconcile' });
      const removed = (await registrationsStore.deleteManagedExcept(core.db, ids)).map((row) => row.id);
      await patterns.refresh();
      return { upserted: ids, removed };
    },
  };
}

export type RegistrationService = ReturnType<typeof createRegistrationService>;
