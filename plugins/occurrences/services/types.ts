// Occurrence types: staff-admin CRUD, public reads of active ones.
// A form_schema is checked when saved: a v1 Form.io schema by the forms
// plugin's rules, a v0 field list by its keys and options.
import type { CoreServices } from 'agent-platform/sdk';
import type { FormsApi } from '../../forms/api.ts';
import { formSchemaProblems, type FormSchema } from '../domain/dynamic-fields.ts';
import { occurrenceErrors } from '../errors.ts';
import { typesStore, type TypeValues } from '../store/types.ts';
import { publicType, staffType } from './views.ts';

export type TypeInput = Omit<TypeValues, 'form_schema'> & { form_schema: FormSchema };

/** Two saves of one code at once: the unique constraint decides, the loser gets the 409. */
const codeRace = (code: string) => (err: unknown): never => {
  if ((err as { code?: string }).code === '23505') throw occurrenceErrors.typeCodeTaken(code);
  throw err;
};

export function createTypesService(core: CoreServices, forms: () => FormsApi) {
  function checked(input: TypeInput): TypeValues {
    const problems = formSchemaProblems(forms(), input.form_schema);
    if (problems.length) throw occurrenceErrors.formSchemaInvalid(problems);
    return { ...input, form_schema: input.form_schema as unknown as Record<string, unknown> };
  }

  return {
    create: (tenantId: string, input: TypeInput) => core.withTenant(tenantId, async (trx) => {
      const values = checked(input);
      if (await typesStore.codeTaken(trx, values.code)) throw occurrenceErrors.typeCodeTaken(values.code);
      return staffType(await typesStore.insert(trx, tenantId, values).catch(codeRace(values.code)));
    }),

    update: (tenantId: string, id: number, input: TypeInput) => core.withTenant(tenantId, async (trx) => {
      const values = checked(input);
      if (!(await typesStore.find(trx, id))) throw occurrenceErrors.typeNotFound();
      if (await typesStore.codeTaken(trx, values.code, id)) throw occurrenceErrors.typeCodeTaken(values.code);
      return staffType((await typesStore.update(trx, id, values).catch(codeRace(values.code)))!);
    }),

    get: (tenantId: string, id: number) => core.withTenant(tenantId, async (trx) => {
      const row = await typesStore.find(trx, id);
      if (!row) throw occurrenceErrors.typeNotFound();
      return staffType(row);
    }),

    list: (tenantId: string) => core.withTenant(tenantId, async (trx) => ({ items: (await typesStore.list(trx, false)).map(staffType) })),

    /** Deleting a type with occurrences is refused: deactivate it. */
    remove: (tenantId: string, id: number) => core.withTenant(tenantId, async (trx) => {
      if (!(await typesStore.find(trx, id))) throw occurrenceErrors.typeNotFound();
      if (await typesStore.inUse(trx, id)) throw occurrenceErrors.typeInUse();
      await typesStore.remove(trx, id);
    }),

    /** A type as citizens see it: active ones only (an inactive one is not found). */
    publicGet: (tenantId: string, id: number) => core.withTenant(tenantId, async (trx) => {
      const row = await typesStore.find(trx, id);
      if (!row || !row.active) throw occurrenceErrors.typeNotFound();
      return publicType(row);
    }),

    publicList: (tenantId: string) => core.withTenant(tenantId, async (trx) => ({ items: (await typesStore.list(trx, true)).map(publicType) })),
  };
}

export type TypesService = ReturnType<typeof createTypesService>;
