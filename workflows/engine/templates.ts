// `{{path}}` templates, resolved against a context object (`{event: ...}` for
// triggers, `{inputs, ...outputs}` for workflow steps). A string that is one
// whole template keeps the value's JSON type; templates inside a longer string
// are interpolated as text; strings without templates pass through; a path
// that does not resolve gives null.
import { MISSING, valueAt } from './paths.ts';

const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const WHOLE = /^\{\{\s*([^{}]*?)\s*\}\}$/;
const PATH = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/;

/** Paths used by templates in a value (strings, arrays and objects, deeply). */
export function templatePaths(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(TEMPLATE)].map((match) => match[1]);
  if (Array.isArray(value)) return value.flatMap(templatePaths);
  if (value && typeof value === 'object') return Object.values(value).flatMap(templatePaths);
  return [];
}

/**
 * Problems with the templates in a value, each naming the offending template.
 * `roots` limits the first path segment, `allowed` (when given) checks whole
 * paths (e.g. trigger mappings allow event.type, event.data.* …).
 */
export function validateTemplates(value: unknown, allowed?: (path: string) => boolean): string[] {
  const errors: string[] = [];
  const check = (text: string) => {
    const opens = (text.match(/\{\{/g) ?? []).length;
    const found = [...text.matchAll(TEMPLATE)];
    if (opens !== found.length || (text.match(/\}\}/g) ?? []).length !== found.length) {
      errors.push(`unbalanced braces in "${text}"`);
    }
    for (const match of found) {
      const path = match[1];
      if (!PATH.test(path)) errors.push(`"{{${path}}}" is not a dot path`);
      else if (allowed && !allowed(path)) errors.push(`"{{${path}}}" is not an allowed path`);
    }
  };
  const walk = (v: unknown) => {
    if (typeof v === 'string') check(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(value);
  return errors;
}

function lookup(context: unknown, path: string): unknown {
  const value = valueAt(context, path);
  return value === MISSING ? null : value;
}

/** Resolves every template in a value (deeply), returning a new value. */
export function resolveTemplates(value: unknown, context: unknown): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return lookup(context, whole[1]);
    if (!value.includes('{{')) return value;
    return value.replace(TEMPLATE, (_m, path: string) => {
      const found = lookup(context, path);
      if (found === null) return '';
      return typeof found === 'object' ? JSON.stringify(found) : String(found);
    });
  }
  if (Array.isArray(value)) return value.map((item) => resolveTemplates(item, context));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveTemplates(item, context)]));
  }
  return value;
}
