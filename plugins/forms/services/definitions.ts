// Form definitions: a Form.io schema under a name, with immutable numbered
// versions. Editing the schema writes version N+1; every version stays
// readable, archived definitions' included (their submissions show them).
import { conflict, type CoreServices, type TenantTransaction } from 'agent-platform/sdk';
import { formsErrors } from '../errors.ts';
import { validateWithFormio } from '../formio/engine.ts';
import { formSchemaProblems } from '../formio/schema-check.ts';
import { definitionsStore } from '../store/definitions.ts';
import { useCasesStore } from '../store/use-cases.ts';

export interface DefinitionInput {
  name?: string;
  description?: string;
  schema?: Record<string, unknown>;
}

/** JSON with sorted keys: jsonb does not keep key order, so equality compares this. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function checkSchema(schema: unknown): void {
  const problems = formSchemaProblems(schema);
  if (problems.length) throw formsErrors.schemaInvalid(problems);
}

export function createDefinitionsService(core: CoreServices) {
  async function nameFree(trx: TenantTransaction, name: string, except?: string) {
    const taken = await definitionsStore.liveIdByName(trx, name);
    if (taken && taken !== except) throw conflict(`A form definition named "${name}" exists`, 'FORM_DEFINITION_EXISTS');
  }

  async function findVersion(trx: TenantTransaction, id: string, version: number) {
    const found = await definitionsStore.version(trx, id, version);
    if (!found) {
      if (!(await definitionsStore.exists(trx, id))) throw formsErrors.definitionNotFound();
      throw formsErrors.versionNotFound(version);
    }
    return found;
  }

  return {
    create(tenantId: string, input: Required<Pick<DefinitionInput, 'name' | 'schema'>> & DefinitionInput, createdBy: string | null) {
      checkSchema(input.schema);
      return core.withTenant(tenantId, async (trx) => {
        await nameFree(trx, input.name);
        const definition = await definitionsStore.insert(trx, tenantId, { name: input.name, description: input.description ?? '' });
        const version = await definitionsStore.insertVersion(trx, tenantId, definition.id, 1, input.schema, createdBy);
        return { ...definition, schema: version.schema };
      });
    },

    /** Changes name or description in place; a different schema becomes the next version. */
    update(tenantId: string, id: string, input: DefinitionInput, createdBy: string | null) {
      if (input.schema !== undefined) checkSchema(input.schema);
      return core.withTenant(tenantId, async (trx) => {
        const current = await definitionsStore.find(trx, id, true);
        if (!current) throw formsErrors.definitionNotFound();
        if (input.name !== undefined && input.name !== current.name) await nameFree(trx, input.name, id);
        let latest = current.latest_version;
        if (input.schema !== undefined && canonicalJson(input.schema) !== canonicalJson(current.schema)) {
          latest += 1;
          await definitionsStore.insertVersion(trx, tenantId, id, latest, input.schema, createdBy);
        }
        await definitionsStore.update(trx, id, { name: input.name, description: input.description, latest_version: latest });
        return (await definitionsStore.find(trx, id))!;
      });
    },

    async get(tenantId: string, id: string) {
      const found = await core.withTenant(tenantId, (trx) => definitionsStore.find(trx, id));
      if (!found) throw formsErrors.definitionNotFound();
      return found;
    },

    list: (tenantId: string, skip: number, limit: number) => core.withTenant(tenantId, (trx) => definitionsStore.list(trx, skip, limit)),

    /** Archives it: refused (409) while a use case uses it; its versions stay for the submissions that pinned them. */
    remove: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      if (!(await definitionsStore.find(trx, id, true))) throw formsErrors.definitionNotFound();
      const inUse = await useCasesStore.countForDefinition(trx, id);
      if (inUse > 0) throw conflict(`The form definition is used by ${inUse} use case(s): delete or move them first`, 'FORM_DEFINITION_IN_USE');
      await definitionsStore.archive(trx, id);
    }),

    versions: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      if (!(await definitionsStore.exists(trx, id))) throw formsErrors.definitionNotFound();
      return definitionsStore.versions(trx, id);
    }),

    version: (tenantId: string, id: string, version: number) => core.withTenant(tenantId, (trx) => findVersion(trx, id, version)),

    /**
     * Validates a payload against one version as a submission is validated
     * (Form.io's engine, this form's fields only); stores nothing.
     */
    async validate(tenantId: string, id: string, version: number, payload: Record<string, unknown>) {
      const { schema } = await core.withTenant(tenantId, (trx) => findVersion(trx, id, version));
      const { data, errors } = validateWithFormio(schema as never, payload);
      return { valid: errors.length === 0, errors, data };
    },
  };
}

export type DefinitionsService = ReturnType<typeof createDefinitionsService>;
