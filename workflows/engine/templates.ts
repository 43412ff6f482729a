// `{{path}}` templates, resolved against a context object (`{event: ...}` for
// triggers, `{inputs, ...outputs}` for workflow steps). A string that is one
// whole template keeps the value's JSON type; templates inside a longer string
// are interpolated as text; strings without templates pass through; a path
// that does not resolve gives null.
//
// Templates are tenant-written, so they are found by a scanner that reads each
// character a bounded number of times (no regular expression: the former
// /\{\{\s*([^{}]*?)\s*\}\}/g backtracked cubically on "{{" + spaces), and a
// string with templates may be at most MAX_TEMPLATE_LENGTH characters:
// definitions with a longer one are refused, and at run time it is not
// evaluated (resolveTemplates throws TemplateTooLongError).
import { MISSING, valueAt } from './paths.ts';

/** The longest string (in UTF-16 code units) that may contain templates: 64 KiB. */
export const MAX_TEMPLATE_LENGTH = 65_536;

// Linear: the segments are separated by a character they cannot contain.
const PATH = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/;

export interface TemplateMatch {
  /** Index of the opening `{{`. */
  start: number;
  /** Index just past the closing `}}`. */
  end: number;
  /** The text between the braces without surrounding white space. */
  path: string;
}

export class TemplateTooLongError extends Error {
  constructor(length: number) {
    super(`a string with templates is ${length} characters long; the limit is ${MAX_TEMPLATE_LENGTH}`);
    this.name = 'TemplateTooLongError';
  }
}

const isBrace = (code: number) => code === 123 /* { */ || code === 125 /* } */;

/**
 * Every `{{ path }}` in a text, left to right, exactly as the former regular
 * expression found them: `{{`, then text without `{` or `}`, then `}}`. An
 * opening whose text meets another brace first is no template, and the search
 * goes on after it. Each character is looked at a bounded number of times.
 */
export function scanTemplates(text: string): TemplateMatch[] {
  const found: TemplateMatch[] = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf('{{', from);
    if (start < 0) return found;
    let brace = start + 2;
    while (brace < text.length && !isBrace(text.charCodeAt(brace))) brace++;
    if (brace >= text.length) return found; // no brace after it: no later opening either
    if (text.charCodeAt(brace) === 125 && text.charCodeAt(brace + 1) === 125) {
      found.push({ start, end: brace + 2, path: text.slice(start + 2, brace).trim() });
      from = brace + 2;
    } else {
      // Openings between start + 1 and brace cannot exist (no braces there)
      // except start + 1 itself when brace is start + 2, a constant-time check.
      from = start + 1;
    }
  }
}

/** Non-overlapping occurrences of a two-character token. */
function count(text: string, token: string): number {
  let n = 0;
  for (let at = text.indexOf(token); at >= 0; at = text.indexOf(token, at + token.length)) n++;
  return n;
}

/** Paths used by templates in a value (strings, arrays and objects, deeply). */
export function templatePaths(value: unknown): string[] {
  if (typeof value === 'string') return scanTemplates(value).map((match) => match.path);
  if (Array.isArray(value)) return value.flatMap(templatePaths);
  if (value && typeof value === 'object') return Object.values(value).flatMap(templatePaths);
  return [];
}

const shown = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

/**
 * Problems with the templates in a value, each naming the offending template.
 * `roots` limits the first path segment, `allowed` (when given) checks whole
 * paths (e.g. trigger mappings allow event.type, event.data.* …).
 */
export function validateTemplates(value: unknown, allowed?: (path: string) => boolean): string[] {
  const errors: string[] = [];
  const check = (text: string) => {
    if (!text.includes('{{') && !text.includes('}}')) return;
    if (text.length > MAX_TEMPLATE_LENGTH) {
      errors.push(`a string with templates may be at most ${MAX_TEMPLATE_LENGTH} characters (this one has ${text.length}): "${shown(text)}"`);
      return;
    }
    const found = scanTemplates(text);
    if (count(text, '{{') !== found.length || count(text, '}}') !== found.length) {
      errors.push(`unbalanced braces in "${shown(text)}"`);
    }
    for (const { path } of found) {
      if (!PATH.test(path)) errors.push(`"{{${shown(path)}}}" is not a dot path`);
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

/**
 * Resolves every template in a value (deeply), returning a new value. Throws
 * TemplateTooLongError for a string with templates over MAX_TEMPLATE_LENGTH
 * (a definition stored before the limit): it is refused, not evaluated.
 */
export function resolveTemplates(value: unknown, context: unknown): unknown {
  if (typeof value === 'string') {
    if (!value.includes('{{')) return value;
    if (value.length > MAX_TEMPLATE_LENGTH) throw new TemplateTooLongError(value.length);
    const found = scanTemplates(value);
    if (found.length === 1 && found[0].start === 0 && found[0].end === value.length) return lookup(context, found[0].path);
    let text = '';
    let at = 0;
    for (const match of found) {
      const resolved = lookup(context, match.path);
      text += value.slice(at, match.start);
      if (resolved !== null) text += typeof resolved === 'object' ? JSON.stringify(resolved) : String(resolved);
      at = match.end;
    }
    return text + value.slice(at);
  }
  if (Array.isArray(value)) return value.map((item) => resolveTemplates(item, context));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveTemplates(item, context)]));
  }
  return value;
}
