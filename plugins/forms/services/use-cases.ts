// Use cases: a form definition at a pinned version (or `latest`)
// turned into objects of one target, with the target's config, an access
// mode and an active flag; and their field bindings. Whatever is saved is
// checked against what it names: the version exists, the target is
// registered, the config fits its schema, the bindings fit the form version
// and the target's fields (re-checked when the use case changes), and every
// required target field has a binding or a standard mapping: a use case
// whose submissions would all fail is never saved.
import { badRequest, type CoreServices, type TenantTransaction } from 'agent-platform/sdk';
import type { FieldBinding, FieldInfo, FormField, StandardMapping, TargetConfig } from '../api.ts';
import { formsErrors } from '../errors.ts';
import { bindingProblems, unboundProblem, unboundRequiredFields } from '../hydration/bindings.ts';
import { useCasesStore, type UseCaseValues } from '../store/use-cases.ts';
import type { TargetRegistry } from '../targets/registry.ts';
import { formVersion, type TargetsService } from './targets.ts';

export interface UseCaseInput {
  name: string;
  form_definition_id: string;
  /** A version number, or 'latest'. */
  form_version: number | 'latest';
  target_model: string;
  target_config: TargetConfig;
  access: 'public' | 'authenticated';
  active: boolean;
}

type StoredUseCase = NonNullable<Awaited<ReturnType<typeof useCasesStore.find>>>;

/**
 * Refuses bindings that cannot be saved: 400 BINDINGS_INVALID naming each
 * binding at fault (and the required fields left without a value, if any),
 * else 400 REQUIRED_FIELD_UNBOUND naming the required fields nothing feeds.
 */
function checkBindings(
  bindings: FieldBinding[], formFields: FormField[], targetFields: FieldInfo[], standard: StandardMapping[], prefix = '',
): void {
  const problems = bindingProblems(bindings, formFields, targetFields, standard);
  const unbound = unboundRequiredFields(bindings, formFields, targetFields, standard);
  if (problems.length) throw formsErrors.bindingsInvalid([...problems, ...(unbound.length ? [unboundProblem(unbound)] : [])].map((problem) => `${prefix}${problem}`));
  if (unbound.length) throw formsErrors.requiredFieldUnbound(unbound);
}

export function useCaseView(row: StoredUseCase) {
  const { definition_id: formDefinitionId, form_version: version, ...rest } = row;
  return { ...rest, form_definition_id: formDefinitionId, form_version: version ?? 'latest' as const };
}

export function createUseCasesService(core: CoreServices, registry: TargetRegistry, targets: TargetsService) {
  /** The values to store, every reference checked, and the bindings (`saved`: the ones already stored) valid against them. */
  async function checked(trx: TenantTransaction, tenantId: string, input: UseCaseInput, bindings: FieldBinding[], saved: boolean): Promise<UseCaseValues> {
    const target = registry.find(input.target_model);
    if (!target) throw badRequest(`target_model: no hydration target is registered under ${input.target_model}`, 'TARGET_NOT_FOUND');
    const pinned = input.form_version === 'latest' ? null : input.form_version;
    const form = await formVersion(trx, input.form_definition_id, pinned).catch((err) => {
      if ((err as { output?: { statusCode?: number } }).output?.statusCode !== 404) throw err;
      throw badRequest(`form_definition_id / form_version: ${(err as Error).message}`, 'FORM_VERSION_NOT_FOUND');
    });
    const config = await targets.config(trx, tenantId, target, input.target_config);
    const fields = await target.discoverFields(config, { tenantId, trx });
    checkBindings(bindings, form.fields, fields, targets.standardOf(target), saved ? 'the saved ' : '');
    return {
      name: input.name, definition_id: input.form_definition_id, form_version: pinned, target_model: input.target_model,
      target_config: config, access: input.access, active: input.active,
    };
  }

  async function find(trx: TenantTransaction, id: string): Promise<StoredUseCase> {
    const found = await useCasesStore.find(trx, id);
    if (!found) throw formsErrors.useCaseNotFound();
    return found;
  }

  return {
    /** With its bindings, saved together (none: the target's standard mappings must feed every required field). */
    create: (tenantId: string, input: UseCaseInput, bindings: FieldBinding[] = []) => core.withTenant(tenantId, async (trx) => {
      const created = await useCasesStore.insert(trx, tenantId, await checked(trx, tenantId, input, bindings, false));
      if (bindings.length > 0) await useCasesStore.replaceBindings(trx, tenantId, created.id, bindings);
      return useCaseView(created);
    }),

    /** Fields left out are kept; the saved bindings (or `bindings`, which replace them) must fit the result. */
    update: (tenantId: string, id: string, input: Partial<UseCaseInput>, bindings?: FieldBinding[]) => core.withTenant(tenantId, async (trx) => {
      const current = useCaseView(await find(trx, id));
      const merged: UseCaseInput = { ...current, ...input };
      const values = bindings
        ? await checked(trx, tenantId, merged, bindings, false)
        : await checked(trx, tenantId, merged, await useCasesStore.bindings(trx, id), true);
      const updated = await useCasesStore.update(trx, id, values);
      if (bindings) await useCasesStore.replaceBindings(trx, tenantId, id, bindings);
      return useCaseView(updated);
    }),

    get: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => useCaseView(await find(trx, id))),

    list: (tenantId: string, skip: number, limit: number) => core.withTenant(tenantId, async (trx) => {
      const { items, total } = await useCasesStore.list(trx, skip, limit);
      return { items: items.map(useCaseView), total };
    }),

    /** Archives it: no more submissions; its submissions stay. */
    remove: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      await find(trx, id);
      await useCasesStore.archive(trx, id);
    }),

    bindings: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      await find(trx, id);
      return useCasesStore.bindings(trx, id);
    }),

    /** Replaces the bindings; 400 BINDINGS_INVALID names every binding at fault, 400 REQUIRED_FIELD_UNBOUND the required fields left without a value. */
    replaceBindings: (tenantId: string, id: string, bindings: FieldBinding[]) => core.withTenant(tenantId, async (trx) => {
      const useCase = await find(trx, id);
      const target = registry.find(useCase.target_model);
      if (!target) throw formsErrors.targetUnavailable(useCase.target_model);
      const form = await formVersion(trx, useCase.definition_id, useCase.form_version);
      const fields = await target.discoverFields(useCase.target_config, { tenantId, trx });
      checkBindings(bindings, form.fields, fields, targets.standardOf(target));
      await useCasesStore.replaceBindings(trx, tenantId, id, bindings);
      return useCasesStore.bindings(trx, id);
    }),
  };
}

export type UseCasesService = ReturnType<typeof createUseCasesService>;
