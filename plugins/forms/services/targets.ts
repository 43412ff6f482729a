// What admins learn of the registered hydration targets: their config
// schemas, their fields for a config, their standard mappings, and bindings
// proposed for a form (the target's own suggestions, else fields matched by
// key and label).
import type { CoreServices, TenantTransaction } from 'agent-platform/sdk';
import type { FieldBinding, FieldInfo, FormForSuggestions, HydrationTarget, StandardMapping, TargetConfig } from '../api.ts';
import { formsErrors } from '../errors.ts';
import { formFields } from '../formio/fields.ts';
import { bindingShapeProblems, effectiveBindings } from '../hydration/bindings.ts';
import { definitionsStore } from '../store/definitions.ts';
import { checkTargetConfig } from '../targets/config.ts';
import type { TargetRegistry } from '../targets/registry.ts';

const normal = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The form version a use case (or a request) names: a number, or the latest (null). */
export async function formVersion(trx: TenantTransaction, definitionId: string, version: number | null): Promise<FormForSuggestions> {
  const definition = await definitionsStore.find(trx, definitionId);
  if (!definition && version === null) throw formsErrors.definitionNotFound();
  const pinned = version ?? definition!.latest_version;
  const found = await definitionsStore.version(trx, definitionId, pinned);
  if (!found) throw definition ? formsErrors.versionNotFound(pinned) : formsErrors.definitionNotFound();
  const schema = found.schema as { components: never[] };
  return { definition_id: definitionId, version: pinned, schema: found.schema, fields: formFields(schema) };
}

/** Fields matched by normalised key or label; integer targets of non-number fields get TO_INT. */
export function defaultSuggestions(form: FormForSuggestions, fields: FieldInfo[], standard: StandardMapping[]): FieldBinding[] {
  const covered = new Set(effectiveBindings([], standard, form.fields).map((binding) => binding.target_field_path));
  const sources = form.fields.filter((field) => field.type !== 'button');
  const suggestions: FieldBinding[] = [];
  for (const target of fields) {
    if (target.category === 'auto_filled' || covered.has(target.key)) continue;
    const names = new Set([normal(target.key), normal(target.label)]);
    const source = sources.find((field) => names.has(normal(field.key)) || names.has(normal(field.label)));
    if (!source) continue;
    const toInt = target.field_type === 'integer' && source.type !== 'number';
    suggestions.push({ source_field_path: source.path, target_field_path: target.key, transform: toInt ? 'TO_INT' : 'NONE', transform_params: {} });
  }
  return suggestions;
}

export function createTargetsService(core: CoreServices, registry: TargetRegistry) {
  const standardOf = (target: HydrationTarget): StandardMapping[] => target.standardMappings?.() ?? [];

  /** The config with defaults, checked against the target's schema (400 TARGET_CONFIG_INVALID). */
  async function config(trx: TenantTransaction, tenantId: string, target: HydrationTarget, raw: TargetConfig): Promise<TargetConfig> {
    return checkTargetConfig(await target.configSchema({ tenantId, trx }), raw);
  }

  return {
    standardOf,
    config,

    /** The targets as GET /api/admin/forms/targets lists them: every config item carries `default` (null when it has none). */
    list: (tenantId: string) => core.withTenant(tenantId, async (trx) => Promise.all(registry.list().map(async (target) => ({
      model: target.model, label: target.label, description: target.description,
      config_schema: (await target.configSchema({ tenantId, trx })).map((item) => ({ ...item, default: item.default ?? null })),
    })))),

    /** The target's fields for a config: every one carries `help_text` (null when it has none or it is empty). */
    fields: (tenantId: string, model: string, raw: TargetConfig) => core.withTenant(tenantId, async (trx) => {
      const target = registry.get(model);
      const fields = await target.discoverFields(await config(trx, tenantId, target, raw), { tenantId, trx });
      return fields.map((field) => ({ ...field, help_text: field.help_text || null }));
    }),

    standardMappings: (model: string) => standardOf(registry.get(model)),

    suggestions: (tenantId: string, model: string, input: { config: TargetConfig; form_definition_id: string; version?: number }) =>
      core.withTenant(tenantId, async (trx) => {
        const target = registry.get(model);
        const checked = await config(trx, tenantId, target, input.config);
        const form = await formVersion(trx, input.form_definition_id, input.version ?? null);
        const ctx = { tenantId, trx };
        const fields = await target.discoverFields(checked, ctx);
        const proposed = target.suggestions
          ? await target.suggestions(checked, form, ctx)
          : defaultSuggestions(form, fields, standardOf(target));
        // Only what could be saved as it is: a target's own suggestion that would not pass is left out.
        return proposed.filter((binding) => bindingShapeProblems(binding, form.fields, fields).length === 0);
      }),
  };
}

export type TargetsService = ReturnType<typeof createTargetsService>;
