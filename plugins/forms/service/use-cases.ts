// Use cases: a form definition at a pinned version (or `latest`)
// turned into objects of one target, with the target's config, an access
// mode and an active flag; and their field bindings. Whatever is saved is
// checked against what it names: the version exists, the target is
// registered, the config fits its schema, the bindings fit the form version
// and the target's fields (re-checked when the use case changes).
import { badRequest, type CoreServices, type TenantTransaction } from 'agent-platform/sdk';
import type { FieldBinding, TargetConfig } from '../api.ts';
import { formsErrors } from '../errors.ts';
import { bindingProblems } from '../hydration/bindings.ts';
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

export function useCaseView(row: StoredUseCase) {
  const { definition_id: formDefinitionId, form_version: version, ...rest } = row;
  return { ...rest, form_definition_id: formDefinitionId, form_version: version ?? 'latest' as const };
}

export function createUseCasesService(core: CoreServices, registry: TargetRegistry, targets: TargetsService) {
  /** The values to store, every reference checked; and the bindings still valid against them. */
  async function checked(trx: TenantTransaction, tenantId: string, input: UseCaseInput, bindings: FieldBinding[]): Promise<UseCaseValues> {
    const target = registry.find(input.target_model);
    if (!target) throw badRequest(`target_model: no hydration target is registered under ${input.target_model}`, 'TARGET_NOT_FOUND');
    const pinned = input.form_version === 'latest' ? null : input.form_version;
    const form = await formVersion(trx, input.form_definition_id, pinned).catch((err) => {
      if ((err as { output?: { statusCode?: number } }).output?.statusCode !== 404) throw err;
      throw badRequest(`form_definition_id / form_version: ${(err as Error).message}`, 'FORM_VERSION_NOT_FOUND');
    });
    const config = await targets.config(trx, tenantId, target, input.target_config);
    if (bindings.length > 0) {
      const fields = await target.discoverFields(config, { tenantId, trx });
      const problems = bindingProblems(bindings, form.fields, fields, targets.standardOf(target));
      if (problems.length) throw formsErrors.bindingsInvalid(problems.map((problem) => `the saved ${problem}`));
    }
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
    create: (tenantId: string, input: UseCaseInput) => core.withTenant(tenantId, async (trx) =>
      useCaseView(await useCasesStore.insert(trx, tenantId, await checked(trx, tenantId, input, [])))),

    /** Fields left out are kept; the saved bindings must still fit. */
    update: (tenantId: string, id: string, input: Partial<UseCaseInput>) => core.withTenant(tenantId, async (trx) => {
      const current = useCaseView(await find(trx, id));
      const merged: UseCaseInput = { ...current, ...input };
      const values = await checked(trx, tenantId, merged, await useCasesStore.bindings(trx, id));
      return useCaseView(await useCasesStore.update(trx, id, values));
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

    /** Replaces the bindings; 400 BINDINGS_INVALID names every binding at fault. */
    replaceBindings: (tenantId: string, id: string, bindings: FieldBinding[]) => core.withTenant(tenantId, async (trx) => {
      const useCase = await find(trx, id);
      const target = registry.find(useCase.target_model);
      if (!target) throw formsErrors.targetUnavailable(useCase.target_model);
      const form = await formVersion(trx, useCase.definition_id, useCase.form_version);
      const fields = await target.discoverFields(useCase.target_config, { tenantId, trx });
      const problems = bindingProblems(bindings, form.fields, fields, targets.standardOf(target));
      if (problems.length) throw formsErrors.bindingsInvalid(problems);
      await useCasesStore.replaceBindings(trx, tenantId, id, bindings);
      return useCasesStore.bindings(trx, id);
    }),
  };
}

export type UseCasesService = ReturnType<typeof createUseCasesService>;
