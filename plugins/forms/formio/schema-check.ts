// Whether a JSON value is a Form.io form this platform will run, and if not,
// every reason, each naming its component. A form is data, never code: the
// properties through which Form.io runs JavaScript or JSONLogic (custom
// conditionals and validation, calculated and custom default values, logic),
// or fetches from a URL (select data sources other than static values and
// JSON, the data source component, nested form references) are refused, as
// are patterns RE2 cannot run and keys that are not plain identifiers.
import { Utils, type Component } from '@formio/core';
import { compilePattern } from './linear-rules.ts';

/** A component key: a plain identifier, so data paths (`a.b`) are unambiguous. */
export const COMPONENT_KEY = /^[A-Za-z_][A-Za-z0-9_-]{0,127}$/;
export const MAX_COMPONENTS = 2000;

const DATA_SOURCES = new Set(['values', 'json']);
const REFUSED_TYPES: Record<string, string> = {
  form: 'nested form references are not supported',
  datasource: 'the data source component fetches from URLs',
  resource: 'resource components read other forms',
};

const present = (value: unknown) =>
  value !== undefined && value !== null && value !== false && value !== ''
  && !(Array.isArray(value) && value.length === 0)
  && !(typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0);

/** Properties whose value is code Form.io would evaluate (a non-empty value is refused). */
function codeProperties(component: Component): string[] {
  const c = component as Record<string, any>;
  const found: string[] = [];
  if (present(c.customConditional)) found.push('customConditional (JavaScript)');
  if (present(c.conditional?.json)) found.push('conditional.json (JSONLogic)');
  if (present(c.calculateValue)) found.push('calculateValue');
  if (present(c.customDefaultValue)) found.push('customDefaultValue (JavaScript)');
  if (present(c.validate?.custom)) found.push('validate.custom (JavaScript)');
  if (present(c.validate?.json)) found.push('validate.json (JSONLogic)');
  if (present(c.logic)) found.push('logic');
  if (present(c.data?.custom)) found.push('data.custom (JavaScript)');
  if (present(c.fetch)) found.push('fetch');
  if (c.dataSrc !== undefined && c.dataSrc !== '' && !DATA_SOURCES.has(c.dataSrc)) found.push(`dataSrc "${String(c.dataSrc).slice(0, 40)}"`);
  return found;
}

function patternProblem(component: Component): string | undefined {
  const pattern = (component as { validate?: { pattern?: unknown } }).validate?.pattern;
  if (pattern === undefined || pattern === null || pattern === '') return undefined;
  if (typeof pattern !== 'string') return 'validate.pattern must be a string';
  try {
    new RegExp(`^${pattern}$`); // the browser renderer compiles it too
  } catch {
    return 'validate.pattern is not a valid regular expression';
  }
  try {
    compilePattern(pattern);
  } catch (err) {
    return `validate.pattern: ${(err as Error).message} (no backreferences or lookaround)`;
  }
  return undefined;
}

const isDataComponent = (component: Component) => !['none', 'content'].includes(Utils.getModelType(component));

/** Every reason `schema` is not an acceptable Form.io form; empty when it is. */
export function formSchemaProblems(schema: unknown): string[] {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return ['the schema must be a Form.io form: an object with `components`'];
  const form = schema as { components?: unknown; display?: unknown };
  if (!Array.isArray(form.components)) return ['the schema must have a `components` array'];
  if (form.display !== undefined && form.display !== 'form' && form.display !== 'wizard') return ['display must be "form" or "wizard"'];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  let count = 0;
  let malformed = false;
  const visit = (component: Component, path: string, paths?: { fullPath?: string; path?: string }) => {
    count++;
    if (!component || typeof component !== 'object' || Array.isArray(component)) {
      malformed = true;
      return;
    }
    const key = (component as { key?: unknown }).key;
    const name = typeof key === 'string' ? key : `#${count}`;
    if (typeof component.type !== 'string' || component.type === '') problems.push(`component ${name}: \`type\` is required`);
    if (typeof key !== 'string' || !COMPONENT_KEY.test(key)) {
      problems.push(`component ${typeof key === 'string' ? JSON.stringify(key.slice(0, 60)) : `#${count}`}: \`key\` must be a letter or _ then letters, digits, _ or - (up to 128)`);
      return;
    }
    const refused = REFUSED_TYPES[component.type];
    if (refused) problems.push(`component ${key}: type "${component.type}": ${refused}`);
    const code = codeProperties(component);
    if (code.length) problems.push(`component ${key}: ${code.join(', ')}: forms may not carry code or fetch data; remove ${code.length > 1 ? 'them' : 'it'}`);
    const pattern = patternProblem(component);
    if (pattern) problems.push(`component ${key}: ${pattern}`);
    // Two components with one data path (or, for layout, one full path) clash.
    const identity = isDataComponent(component) ? `data:${paths?.path ?? path}` : `layout:${paths?.fullPath ?? path}`;
    seen.set(identity, (seen.get(identity) ?? 0) + 1);
  };
  try {
    Utils.eachComponent(form.components as Component[], (component, path, _components, _parent, paths) => {
      if (count > MAX_COMPONENTS) return true;
      visit(component, path, paths as never);
      return undefined;
    }, true);
  } catch {
    malformed = true;
  }
  if (malformed) problems.push('the components are malformed: each must be an object (with `components`, `columns` or `rows` for layouts)');
  if (count > MAX_COMPONENTS) problems.push(`the form has more than ${MAX_COMPONENTS} components`);
  const duplicates = [...seen].filter(([, n]) => n > 1).map(([identity]) => identity.slice(identity.indexOf(':') + 1));
  if (duplicates.length) problems.push(`duplicate keys: ${duplicates.join(', ')}`);
  return problems;
}
