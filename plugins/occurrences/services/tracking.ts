// What the public tracking page shows of a report: its public fields, its
// state history (state names and times: never who moved it, nor staff
// comments) and the messages sent to the reporter (email and sms templates;
// staff notes never). No personal data of the reporter: a message that
// quotes the reporter's name, email or phone shows "…" in its place. Found
// by reference under the tenant's row-level security: another tenant's
// reference is not found.
import type { CoreServices } from 'agent-platform/sdk';
import { messagesStore } from '../store/messages.ts';
import { occurrencesStore } from '../store/occurrences.ts';
import { statesStore } from '../store/states.ts';
import { typesStore } from '../store/types.ts';

export interface TrackingView {
  reference: string;
  type_name: string | null;
  title: string;
  description: string;
  address: string | null;
  state: { key: string; label: string; final: boolean };
  created_at: Date;
  history: { state: string; at: Date }[];
  messages: { subject: string; body: string; at: Date }[];
}

/** The longest reference looked up (longer ones are not found without a query). */
export const MAX_REFERENCE_LENGTH = 64;

const TO_REPORTER = new Set(['email', 'sms']);

function redactor(personal: (string | null)[]) {
  const values = personal.map((value) => value?.trim() ?? '').filter((value) => value.length >= 3).sort((a, b) => b.length - a.length);
  return (text: string) => values.reduce((current, value) => current.split(value).join('…'), text);
}

export function createTrackingService(core: CoreServices) {
  return {
    /** The report's public view; null when the tenant has no report of that reference. */
    find: (tenantId: string, reference: string): Promise<TrackingView | null> => {
      if (reference.length === 0 || reference.length > MAX_REFERENCE_LENGTH) return Promise.resolve(null);
      return core.withTenant(tenantId, async (trx) => {
        const row = await occurrencesStore.findByReference(trx, reference);
        if (!row) return null;
        await statesStore.ensureSeeded(trx, tenantId);
        const [type, states, history, messages] = await Promise.all([
          typesStore.find(trx, row.type_id), statesStore.states(trx), occurrencesStore.history(trx, row.id), messagesStore.ofOccurrence(trx, row.id),
        ]);
        const label = (key: string) => states.find((state) => state.key === key)?.label ?? key;
        const redact = redactor([row.reporter_name, row.reporter_email, row.reporter_phone]);
        return {
          reference: row.reference, type_name: type?.name ?? null, title: row.title, description: row.description, address: row.address,
          state: { key: row.state, label: label(row.state), final: states.some((state) => state.key === row.state && state.is_final) },
          created_at: row.created_at,
          history: history.map((entry) => ({ state: label(entry.to_state), at: entry.created_at })),
          messages: messages.filter((message) => TO_REPORTER.has(message.channel))
            .map((message) => ({ subject: redact(message.subject), body: redact(message.body), at: message.created_at })),
        };
      });
    },
  };
}

export type TrackingService = ReturnType<typeof createTrackingService>;
