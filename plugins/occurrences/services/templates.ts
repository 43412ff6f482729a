// Message templates: {id, name, channel (email|sms|note),
// subject, body, type_ids, states} with {{variables}} from a fixed set.
// Saving refuses syntax errors and unknown variables; a preview renders a
// stored template or a draft for an occurrence, lists unknown variables and
// stores nothing; applying records the message on the occurrence's timeline
// and emits occurrence.message_sent; an email message to a reporter with an
// address is written to the mail plugin's outbox in the same transaction
// when the manifest loads it (otherwise a workflow on the event delivers it).
import { domainError, type CoreServices, type TenantTransaction } from 'agent-platform/sdk';
import type { MailApi } from '../../mail/api.ts';
import { render, syntaxProblems, unknownVariables, VARIABLES } from '../domain/render.ts';
import { occurrenceErrors } from '../errors.ts';
import { OCCURRENCE_MESSAGE_SENT } from '../event-types.ts';
import type { OccurrencesOptions } from '../options.ts';
import { messagesStore } from '../store/messages.ts';
import { occurrencesStore, type OccurrenceRow } from '../store/occurrences.ts';
import { statesStore } from '../store/states.ts';
import { templatesStore, type TemplateRow, type TemplateValues } from '../store/templates.ts';
import { typesStore } from '../store/types.ts';

export interface PreviewInput {
  occurrence_id: number;
  template_id?: number;
  subject?: string;
  body?: string;
}

/** Two saves of one name at once: the unique constraint decides, the loser gets the 409. */
const nameRace = (name: string) => (err: unknown): never => {
  if ((err as { code?: string }).code === '23505') throw occurrenceErrors.templateNameTaken(name);
  throw err;
};

function checked(values: TemplateValues): TemplateValues {
  const texts = [values.subject, values.body];
  const problems = syntaxProblems(texts);
  const unknown = unknownVariables(texts);
  if (unknown.length) problems.push(`unknown variables: ${unknown.join(', ')} (known: ${Object.keys(VARIABLES).join(', ')})`);
  if (problems.length) throw occurrenceErrors.templateInvalid(problems);
  return { ...values, type_ids: [...new Set(values.type_ids)], states: [...new Set(values.states)] };
}

/** The outbox origin of template messages: origin_id is the message's id. */
export const MAIL_ORIGIN = 'occurrences.message';

/** The tracking URL with `{tenant}` and `{reference}` replaced (a URL without `{tenant}` keeps working). */
export const trackingLink = (url: string, tenantId: string, reference: string) =>
  url.replaceAll('{tenant}', encodeURIComponent(tenantId)).replaceAll('{reference}', encodeURIComponent(reference));

export function createTemplatesService(core: CoreServices, options: OccurrencesOptions, mail: () => MailApi | undefined = () => undefined) {
  async function occurrence(trx: TenantTransaction, id: number): Promise<OccurrenceRow> {
    const row = await occurrencesStore.find(trx, id);
    if (!row) throw occurrenceErrors.occurrenceNotFound();
    return row;
  }

  async function template(trx: TenantTransaction, id: number): Promise<TemplateRow> {
    const row = await templatesStore.find(trx, id);
    if (!row) throw occurrenceErrors.templateNotFound();
    return row;
  }

  async function variables(trx: TenantTransaction, tenantId: string, row: OccurrenceRow) {
    await statesStore.ensureSeeded(trx, tenantId);
    const [type, states] = await Promise.all([typesStore.find(trx, row.type_id), statesStore.states(trx)]);
    return {
      id: row.id, reference: row.reference, title: row.title, description: row.description, address: row.address,
      latitude: row.latitude, longitude: row.longitude, state: row.state, state_label: states.find((s) => s.key === row.state)?.label ?? row.state,
      type_name: type?.name ?? null, type_code: type?.code ?? null, created_at: row.created_at.toISOString(), reporter_name: row.reporter_name,
      tracking_link: trackingLink(options.trackingUrl, tenantId, row.reference),
    };
  }

  const applies = (t: TemplateRow, row: OccurrenceRow) =>
    (t.type_ids.length === 0 || t.type_ids.map(Number).includes(row.type_id)) && (t.states.length === 0 || t.states.includes(row.state));

  return {
    list: (tenantId: string) => core.withTenant(tenantId, async (trx) => ({ items: await templatesStore.list(trx), variables: VARIABLES })),

    get: (tenantId: string, id: number) => core.withTenant(tenantId, (trx) => template(trx, id)),

    create: (tenantId: string, input: TemplateValues) => core.withTenant(tenantId, async (trx) =>
      templatesStore.insert(trx, tenantId, checked(input)).catch(nameRace(input.name))),

    update: (tenantId: string, id: number, input: TemplateValues) => core.withTenant(tenantId, async (trx) => {
      await template(trx, id);
      return (await templatesStore.update(trx, id, checked(input)).catch(nameRace(input.name)))!;
    }),

    remove: (tenantId: string, id: number) => core.withTenant(tenantId, async (trx) => {
      await template(trx, id);
      await templatesStore.remove(trx, id);
    }),

    forOccurrence: (tenantId: string, occurrenceId: number) => core.withTenant(tenantId, async (trx) => {
      const row = await occurrence(trx, occurrenceId);
      return { items: await templatesStore.applicable(trx, row.type_id, row.state) };
    }),

    preview: (tenantId: string, input: PreviewInput) => core.withTenant(tenantId, async (trx) => {
      const row = await occurrence(trx, input.occurrence_id);
      const stored = input.template_id === undefined ? undefined : await template(trx, input.template_id);
      const subject = input.subject ?? stored?.subject ?? '';
      const body = input.body ?? stored?.body ?? '';
      const problems = syntaxProblems([subject, body]);
      if (problems.length) throw occurrenceErrors.templateInvalid(problems);
      const values = await variables(trx, tenantId, row);
      return {
        channel: stored?.channel ?? null, subject: render(subject, values), body: render(body, values),
        unknown_variables: unknownVariables([subject, body]), applicable: stored ? applies(stored, row) : null,
      };
    }),

    apply: (tenantId: string, input: { occurrence_id: number; template_id: number }, actor: string | null) => core.withTenant(tenantId, async (trx) => {
      const row = await occurrence(trx, input.occurrence_id);
      const stored = await template(trx, input.template_id);
      if (!applies(stored, row)) throw domainError(409, `Template ${stored.name} does not apply to this occurrence's type and state`, 'TEMPLATE_NOT_APPLICABLE');
      const values = await variables(trx, tenantId, row);
      const message = await messagesStore.insert(trx, tenantId, {
        occurrence_id: row.id, template_id: stored.id, channel: stored.channel, subject: render(stored.subject, values), body: render(stored.body, values),
        created_by: actor, created_at: core.clock.now(),
      });
      const recipient = stored.channel === 'email' ? row.reporter_email : stored.channel === 'sms' ? row.reporter_phone : null;
      const outbox = mail();
      if (stored.channel === 'email' && recipient && outbox) {
        await outbox.send(trx, tenantId, { to: recipient, subject: message.subject, text: message.body, origin: MAIL_ORIGIN, originId: String(message.id) });
      }
      await core.events.emit(trx, tenantId, {
        type: OCCURRENCE_MESSAGE_SENT, source: `/occurrences/${row.id}`,
        data: {
          occurrence_id: row.id, reference: row.reference, message_id: message.id, template_id: stored.id, channel: stored.channel,
          recipient: recipient || null, subject: message.subject, body: message.body,
        },
      });
      return message;
    }),
  };
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;
