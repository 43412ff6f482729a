// The one place an Ajv instance is made. Tenants write JSON Schemas (imported
// OpenAPI parameters, custom event types), so:
// - `pattern` and `patternProperties` run on RE2 (core/linear-regexp.ts), in
//   time linear in the input; a pattern RE2 cannot compile (backreferences,
//   lookaround, too long) is dropped (it accepts every string) with a warning
//   logged once per pattern, and the rest of the schema still applies;
// - `addUsedSchema: false`: a compiled schema's `$id` is not registered in the
//   shared instance, so one tenant's schema can neither clash with nor be
//   `$ref`erenced by another's;
// - callers that compile schemas that change remove them again
//   (`ajv.removeSchema(schema)`): Ajv keeps every compiled schema object in
//   its cache until then. `cachedSchemaCount` shows that cache's size.
import { createRequire } from 'node:module';
import type { Ajv, Options, ValidateFunction } from 'ajv';
import { compileLinear, type LinearRegExp } from './linear-regexp.ts';

const require = createRequire(import.meta.url);

export type PatternWarning = (pattern: string, reason: string) => void;

let warn: PatternWarning = (pattern, reason) => {
  console.warn(`JSON Schema pattern dropped (accepts any string): ${JSON.stringify(pattern.slice(0, 200))}: ${reason}`);
};
/** Patterns already warned about (bounded: a new set once full). */
let warned = new Set<string>();
const MAX_WARNED = 10_000;

/** Where dropped patterns are reported (boot points this at the platform logger). */
export function onDroppedPattern(report: PatternWarning): void {
  warn = report;
}

function dropped(pattern: string, reason: string): LinearRegExp {
  if (!warned.has(pattern)) {
    if (warned.size >= MAX_WARNED) warned = new Set();
    warned.add(pattern);
    warn(pattern, reason);
  }
  return { test: () => true, toString: () => `dropped:/${pattern}/` };
}

/** Ajv's `code.regExp` engine: RE2, or an always-matching stand-in for a pattern RE2 cannot run. */
function linearEngine(pattern: string): LinearRegExp {
  try {
    return compileLinear(pattern);
  } catch (err) {
    return dropped(pattern, (err as Error).message);
  }
}
// Ajv writes this into standalone code only; the platform never generates standalone validators.
linearEngine.code = 'platform-linear-regexp';

export interface JsonSchemaOptions {
  /** Fill in `default`s while validating (arguments of functions). */
  useDefaults?: boolean;
  /** Check `format`s (ajv-formats); false: formats are annotations only. */
  validateFormats?: boolean;
}

/** An Ajv instance (draft-07, all errors, not strict) with the platform's safe settings. */
export function createAjv(options: JsonSchemaOptions = {}): Ajv {
  const settings: Options = {
    allErrors: true,
    strict: false,
    coerceTypes: false,
    useDefaults: options.useDefaults ?? false,
    validateFormats: options.validateFormats ?? true,
    addUsedSchema: false,
    code: { regExp: linearEngine },
  };
  // Both packages are CommonJS, loaded when the first instance is made.
  const ajv = new (require('ajv') as typeof import('ajv')).Ajv(settings);
  if (settings.validateFormats) (require('ajv-formats') as (a: Ajv) => void)(ajv);
  return ajv;
}

const compiledByText = new WeakMap<Ajv, Map<string, ValidateFunction>>();

/**
 * Compiles a schema written in code (a function's parameters, a built-in
 * pattern's config) once per Ajv instance and process: every platform booted
 * in the same process (tests, the CLI) reuses the validator of the same text.
 * Not for schemas tenants write, which would grow the map without bound.
 */
export function compileCodeSchema(ajv: Ajv, schema: object): ValidateFunction {
  let compiled = compiledByText.get(ajv);
  if (!compiled) compiledByText.set(ajv, compiled = new Map());
  const text = JSON.stringify(schema);
  let validate = compiled.get(text);
  if (!validate) compiled.set(text, validate = ajv.compile(schema));
  return validate;
}

/** How many compiled schemas an Ajv instance holds (its private cache; for tests and leak checks). */
export function cachedSchemaCount(ajv: Ajv): number {
  return (ajv as unknown as { _cache: Map<unknown, unknown> })._cache.size;
}
