// Server-side validation of a payload against one exact form version, by
// Form.io's own engine (@formio/core): its default values, simple
// conditionals (a hidden field is neither required nor kept), normalisation
// and validation rules (required, min/max, lengths, select values, masks,
// dates...). Three rules are swapped for linear-time ones (linear-rules.ts).
// The form must have passed formSchemaProblems: no code reaches the engine,
// and Form.io's evaluator is switched off process-wide (noeval) as a second
// wall, so not even an interpolated message can call a function.
import {
  clearHiddenProcessInfo, clientRules, Evaluator, evaluationRules, filterProcessInfo, interpolateErrors, normalizeProcessInfo,
  processSync, serverDefaultValueProcessInfo, simpleConditionProcessInfo, validateProcessInfo,
  type Component, type ProcessorInfo,
} from '@formio/core';
import type { FormValidationError } from '../api.ts';
import { formFields, topLevelKeys } from './fields.ts';
import { LINEAR_RULES } from './linear-rules.ts';

(Evaluator as { noeval: boolean }).noeval = true;

const REPLACED = new Set(LINEAR_RULES.map((rule) => rule.name));
const SELECT_TYPES = new Set(['select', 'radio', 'selectboxes']);

/** A rule that throws (Form.io logs and skips it) is skipped here without the console noise. */
function quiet(rule: ProcessorInfo<any, any>): ProcessorInfo<any, any> {
  const sync = rule.processSync!;
  const processSyncQuietly = (context: any) => {
    try {
      return sync(context);
    } catch {
      return null;
    }
  };
  return { ...rule, processSync: processSyncQuietly, process: async (context: any) => processSyncQuietly(context) };
}

const RULES = [
  ...clientRules.filter((rule) => !REPLACED.has(rule.name)),
  ...evaluationRules.filter((rule) => rule.name === 'validateAvailableItems'),
  ...LINEAR_RULES,
].map(quiet);

const PROCESSORS = [
  filterProcessInfo, serverDefaultValueProcessInfo, simpleConditionProcessInfo, normalizeProcessInfo, clearHiddenProcessInfo, validateProcessInfo,
];

/**
 * A select, radio or select boxes with static options accepts only those
 * options on the server (Form.io checks them only when `onlyAvailableItems`
 * is set): a submission cannot carry a value its form never offered.
 */
function strictOptions(components: Component[]): Component[] {
  return components.map((component) => {
    const copy = { ...component } as Record<string, any>;
    if (SELECT_TYPES.has(copy.type) && (copy.dataSrc === undefined || copy.dataSrc === 'values' || copy.dataSrc === '')) {
      copy.validate = { ...copy.validate, onlyAvailableItems: true };
    }
    for (const nested of ['components'] as const) if (Array.isArray(copy[nested])) copy[nested] = strictOptions(copy[nested]);
    if (Array.isArray(copy.columns)) copy.columns = copy.columns.map((column: any) => ({ ...column, components: strictOptions(column?.components ?? []) }));
    if (Array.isArray(copy.rows)) {
      copy.rows = copy.rows.map((row: any) => (Array.isArray(row) ? row.map((cell: any) => ({ ...cell, components: strictOptions(cell?.components ?? []) })) : row));
    }
    return copy as Component;
  });
}

export interface ValidationOutcome {
  /** The payload as Form.io keeps it: fields of this form only, conditionally hidden values cleared, values normalised. */
  data: Record<string, unknown>;
  errors: FormValidationError[];
}

/** Validates `payload` against `schema` (a form that passed formSchemaProblems). */
export function validateWithFormio(schema: { components: Component[] }, payload: Record<string, unknown>): ValidationOutcome {
  const errors: FormValidationError[] = [];
  const known = topLevelKeys(formFields(schema));
  for (const key of Object.keys(payload)) {
    if (!known.has(key)) errors.push({ path: key, message: `${key} is not a field of this form version` });
  }
  const scope: { errors: unknown[] } = { errors: [] };
  const context = {
    components: strictOptions(schema.components),
    data: structuredClone(payload),
    scope,
    processors: PROCESSORS,
    rules: RULES,
    config: { server: true },
  };
  processSync(context as never);
  for (const error of interpolateErrors(scope.errors as never)) {
    errors.push({ path: String(error.context?.path ?? error.path.join('.')), message: error.message });
  }
  return { data: context.data as Record<string, unknown>, errors };
}
