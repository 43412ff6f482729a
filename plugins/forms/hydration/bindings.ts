// Field bindings: checked when saved against the form version and the
// target's fields, completed with the target's standard mappings, and applied
// to a payload to give the target its field values.
import type { FieldBinding, FieldInfo, FormField, FormValidationError, StandardMapping } from '../api.ts';
import { fieldExists } from '../formio/fields.ts';
import { applyTransform, paramsProblem, TransformError, type Coordinate } from './transforms.ts';

const label = (binding: FieldBinding, index: number) => `binding ${index} (${binding.source_field_path} → ${binding.target_field_path})`;

/** A field the submission must give a value: required (by category or flag) and not filled by the target itself. */
export const mustHaveValue = (field: FieldInfo) => (field.category === 'required' || field.required) && field.category !== 'auto_filled';

/** What is wrong with one binding on its own: its source, its target, its params. */
export function bindingShapeProblems(binding: FieldBinding, formFields: FormField[], targetFields: FieldInfo[]): string[] {
  const problems: string[] = [];
  if (!fieldExists(formFields, binding.source_field_path)) problems.push(`${binding.source_field_path} is not a field of the form version`);
  const target = targetFields.find((field) => field.key === binding.target_field_path);
  if (!target) problems.push(`${binding.target_field_path} is not a field of the target`);
  else if (target.category === 'auto_filled') problems.push(`${binding.target_field_path} is filled by the target and cannot be bound`);
  const params = paramsProblem(binding.transform, binding.transform_params ?? {});
  if (params) problems.push(params);
  return problems;
}

/**
 * Every reason the bindings themselves cannot be saved, each naming its
 * binding: a source that is not a field of the form version, a target that
 * is not a bindable field of the target, params that do not fit the
 * transform, a target field bound twice (except one latitude and one
 * longitude GEO_PARSE making one point). Required fields left without a
 * value are `unboundRequiredFields`.
 */
export function bindingProblems(
  bindings: FieldBinding[], formFields: FormField[], targetFields: FieldInfo[], standard: StandardMapping[],
): string[] {
  const problems: string[] = [];
  const byTarget = new Map<string, { binding: FieldBinding; index: number }[]>();
  bindings.forEach((binding, index) => {
    problems.push(...bindingShapeProblems(binding, formFields, targetFields).map((problem) => `${label(binding, index)}: ${problem}`));
    byTarget.set(binding.target_field_path, [...(byTarget.get(binding.target_field_path) ?? []), { binding, index }]);
  });
  for (const [target, group] of byTarget) {
    const geo = group.filter(({ binding }) => binding.transform === 'GEO_PARSE');
    if (geo.length === 0) {
      if (group.length > 1) problems.push(`bindings ${group.map(({ index }) => index).join(', ')}: ${target} is bound more than once`);
      continue;
    }
    const components = geo.map(({ binding }) => binding.transform_params.component).sort();
    if (geo.length !== group.length || components.join() !== 'latitude,longitude') {
      problems.push(`bindings ${group.map(({ index }) => index).join(', ')}: ${target} takes a point: exactly one GEO_PARSE latitude and one GEO_PARSE longitude binding`);
    }
  }
  return problems;
}

/** The keys of the target fields a submission must fill that neither a binding nor a standard mapping (whose source the form has) feeds. */
export function unboundRequiredFields(
  bindings: FieldBinding[], formFields: FormField[], targetFields: FieldInfo[], standard: StandardMapping[],
): string[] {
  const covered = new Set(effectiveBindings(bindings, standard, formFields).map((binding) => binding.target_field_path));
  return targetFields.filter((field) => mustHaveValue(field) && !covered.has(field.key)).map((field) => field.key);
}

/** The problem line of required fields without a value, as BINDINGS_INVALID lists it beside the bindings' own. */
export const unboundProblem = (fields: string[]) => `required target fields without a binding or standard mapping: ${fields.join(', ')}`;

/**
 * The explicit bindings plus the target's standard mappings for the target
 * fields no explicit binding feeds (and whose source the form has: all of
 * them when `formFields` is not given).
 */
export function effectiveBindings(bindings: FieldBinding[], standard: StandardMapping[], formFields?: FormField[]): FieldBinding[] {
  const bound = new Set(bindings.map((binding) => binding.target_field_path));
  const implied = standard
    .filter((mapping) => !bound.has(mapping.target_field) && (!formFields || fieldExists(formFields, mapping.source_path)))
    .map((mapping): FieldBinding => ({
      source_field_path: mapping.source_path,
      target_field_path: mapping.target_field,
      transform: mapping.component ? 'GEO_PARSE' : 'NONE',
      transform_params: mapping.component ? { component: mapping.component } : {},
    }));
  return [...bindings, ...implied];
}

/** The value at a dotted path (`a.b`, `rows.0.n`), or undefined. */
export function valueAt(data: unknown, path: string): unknown {
  let current = data;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/**
 * The target fields' values from a payload, or the payload errors (each
 * naming the source path and the target field): a value a transform cannot
 * take, half a point.
 */
export function resolveValues(data: Record<string, unknown>, bindings: FieldBinding[]): { values: Record<string, unknown>; errors: FormValidationError[] } {
  const values: Record<string, unknown> = {};
  const errors: FormValidationError[] = [];
  const points = new Map<string, Partial<Record<Coordinate, { value: number; path: string }>>>();
  for (const binding of bindings) {
    const raw = valueAt(data, binding.source_field_path);
    if (isEmpty(raw)) continue;
    let value: unknown;
    try {
      value = applyTransform(binding.transform, binding.transform_params, raw);
    } catch (err) {
      if (!(err instanceof TransformError)) throw err;
      errors.push({ path: binding.source_field_path, message: `${binding.target_field_path} (${binding.transform}): ${err.message}` });
      continue;
    }
    if (binding.transform === 'GEO_PARSE') {
      const point = points.get(binding.target_field_path) ?? {};
      point[binding.transform_params.component as Coordinate] = { value: value as number, path: binding.source_field_path };
      points.set(binding.target_field_path, point);
    } else {
      values[binding.target_field_path] = value;
    }
  }
  for (const [target, point] of points) {
    if (point.latitude && point.longitude) {
      values[target] = { type: 'Point', coordinates: [point.longitude.value, point.latitude.value] };
    } else {
      const [have, lacking] = point.latitude ? ['latitude', 'longitude'] : ['longitude', 'latitude'];
      errors.push({ path: (point.latitude ?? point.longitude)!.path, message: `${target}: a ${have} without a ${lacking} makes no point` });
    }
  }
  return { values, errors };
}
