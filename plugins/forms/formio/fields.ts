// The data fields of a Form.io form: what a binding's source_field_path may
// name, what a submission's top-level keys may be, what suggestions match on.
import { Utils, type Component } from '@formio/core';
import type { FormField } from '../api.ts';

const NO_DATA = new Set(['none', 'content']);
/** Values with an inner structure a path may reach into (an address, a file list, select boxes). */
const OPEN_VALUES = new Set(['object', 'map', 'any']);

interface Paths {
  path?: string;
  dataPath?: string;
}

/**
 * Fields that hold one value per submission: data components outside arrays
 * (a data grid's column has a value per row, so only the grid is a field),
 * with their data path (`address.street` inside a container).
 */
export function formFields(schema: { components: Component[] }): FormField[] {
  const fields: FormField[] = [];
  Utils.eachComponent(schema.components, (component, path, _components, _parent, rawPaths) => {
    const paths = (rawPaths ?? {}) as Paths;
    const model = Utils.getModelType(component);
    if (NO_DATA.has(model)) return;
    const dataPath = paths.path ?? path;
    if (paths.dataPath !== undefined && paths.dataPath !== dataPath) return; // inside an array
    const nested = Array.isArray((component as { components?: unknown }).components);
    fields.push({
      path: dataPath,
      key: component.key,
      label: typeof component.label === 'string' && component.label ? component.label : component.key,
      type: component.type,
      open: OPEN_VALUES.has(model) && !nested,
    });
  }, true);
  return fields;
}

/** Whether `path` is a field of the form, or lies inside the value of an open one (`where.lat` of an address). */
export function fieldExists(fields: FormField[], path: string): boolean {
  return fields.some((field) => field.path === path || (field.open && path.startsWith(`${field.path}.`)));
}

/** The top-level keys a submission may carry. */
export function topLevelKeys(fields: FormField[]): Set<string> {
  return new Set(fields.map((field) => field.path.split('.')[0]));
}
