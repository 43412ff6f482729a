// Message templates: {id, name, channel (email|sms|note),
// subject, body, type_ids, states, send_on_enter} with {{variables}} from a
// fixed set. Saving refuses syntax errors and unknown variables; a preview
// renders a stored template or a draft for an occurrence, lists unknown
// variables and stores nothing; applying one by hand goes through messaging
// (services/messaging.ts), as the automatic sending on entering a state does.
import { domainError, type CoreServices, type TenantTransaction } from 'agent-platform/sdk';
import { render, syntaxProblems, unknownVariables, VARIABLES } from '../domain/render.ts';
import { occurrenceErrors } from '../errors.ts';
import { occurrencesStore, type OccurrenceRow } from '../store/occurrences.ts';
import { templatesStore, type TemplateRow, type TemplateValues } from '../store/templates.ts';
import { applies, type Messaging } from './messaging.ts';

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

export function createTemplatesService(core: CoreServices, messaging: Messaging) {
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
      const values = await messaging.variables(trx, tenantId, row);
      return {
        channel: stored?.channel ?? null, subject: render(subject, values), body: render(body, values),
        unknown_variables: unknownVariables([subject, body]), applicable: stored ? applies(stored, row) : null,
      };
    }),

    apply: (tenantId: string, input: { occurrence_id: number; template_id: number }, actor: string | null) => core.withTenant(tenantId, async (trx) => {
      const row = await occurrence(trx, input.occurrence_id);
      const stored = await template(trx, input.template_id);
      if (!applies(stored, row)) throw domainError(409, `Template ${stored.name} does not apply to this occurrence's type and state`, 'TEMPLATE_NOT_APPLICABLE');
      return messaging.send(trx, tenantId, row, stored, actor);
    }),
  };
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;
