// Path and query parameters are validated on almost every request, and their
// schemas are simple: a few named strings that joi checks against a pattern,
// a UUID form or a length, or turns into integers or booleans. joi's general
// machinery (preferences merged per call, state, error collection) costs tens
// of µs for that. For a params or query schema made only of such keys, a plain
// check is compiled once at boot. It accepts a strict subset of what joi
// accepts, converted the same way (defaults included); any value it is not
// sure of goes to joi, which then gives the answer and its error, so a refusal
// reads exactly as before. A schema with anything else (references,
// alternatives, custom rules, allow lists, a route's own validation options)
// is left to joi entirely.
import Joi, { type Schema } from 'joi';
import type { Server, Lifecycle } from '@hapi/hapi';
import { UUID_PATTERN } from '../uuid.ts';

/** A key's value could not be settled here: joi decides. */
const UNSURE = Symbol('unsure');
type KeyCheck = (value: unknown) => unknown;

interface KeyDescription {
  type: string;
  flags?: Record<string, unknown>;
  rules?: { name: string; args?: Record<string, unknown> }[];
  [other: string]: unknown;
}

/** Keys of a description that change nothing about acceptance. */
const NEUTRAL_FLAGS = new Set(['presence', 'description', 'label', 'default']);
const KNOWN_PARTS = new Set(['type', 'flags', 'rules']);

// Plain decimal integers that are safe whatever min/max say (joi also takes signs, zeros, exponents: those go to joi).
const PLAIN_INTEGER = /^(?:0|[1-9][0-9]{0,14})$/;

function regexOf(described: unknown): RegExp | undefined {
  if (typeof described !== 'string') return undefined;
  const match = /^\/(.*)\/([dimsuv]*)$/s.exec(described);
  return match ? new RegExp(match[1], match[2]) : undefined;
}

function numberLimit(args: Record<string, unknown> | undefined): number | undefined {
  const limit = args?.limit;
  return typeof limit === 'number' && Number.isFinite(limit) ? limit : undefined;
}

function stringCheck(rules: KeyDescription['rules']): KeyCheck | undefined {
  let min = 1; // joi refuses the empty string unless allowed
  let max = Infinity;
  const patterns: RegExp[] = [];
  for (const rule of rules ?? []) {
    if ((rule.name === 'min' || rule.name === 'max') && rule.args?.encoding === undefined) {
      const limit = numberLimit(rule.args);
      if (limit === undefined) return undefined;
      if (rule.name === 'min') min = Math.max(min, limit);
      else max = Math.min(max, limit);
    } else if (rule.name === 'guid' && (rule.args === undefined || Object.keys(rule.args.options ?? {}).length === 0)) {
      patterns.push(UUID_PATTERN); // hyphenated only: joi also takes braces, colons and none, which go to it
    } else if (rule.name === 'pattern') {
      const options = (rule.args?.options ?? {}) as Record<string, unknown>;
      const regex = regexOf(rule.args?.regex);
      if (!regex || options.invert || options.name) return undefined;
      patterns.push(regex);
    } else {
      return undefined;
    }
  }
  return (value) => {
    if (typeof value !== 'string' || value.length < min || value.length > max) return UNSURE;
    for (const pattern of patterns) if (!pattern.test(value)) return UNSURE;
    return value;
  };
}

function numberCheck(rules: KeyDescription['rules']): KeyCheck | undefined {
  let min = -Infinity;
  let max = Infinity;
  // Only plain integers are read here (integer or not, joi takes them); anything else is joi's to judge.
  for (const rule of rules ?? []) {
    if (rule.name === 'integer') continue;
    if (rule.name === 'min' || rule.name === 'max') {
      const limit = numberLimit(rule.args);
      if (limit === undefined) return undefined;
      if (rule.name === 'min') min = Math.max(min, limit);
      else max = Math.min(max, limit);
    } else return undefined;
  }
  return (value) => {
    if (typeof value !== 'string' || !PLAIN_INTEGER.test(value)) return UNSURE;
    const number = Number(value);
    return number < min || number > max ? UNSURE : number;
  };
}

function booleanCheck(rules: KeyDescription['rules']): KeyCheck | undefined {
  if (rules && rules.length > 0) return undefined;
  return (value) => (value === 'true' ? true : value === 'false' ? false : UNSURE);
}

interface CompiledKey {
  name: string;
  check: KeyCheck;
  required: boolean;
  /** The default, when the key has one (primitives only). */
  fallback?: { value: unknown };
}

function compileKey(name: string, key: KeyDescription): CompiledKey | undefined {
  if (Object.keys(key).some((part) => !KNOWN_PARTS.has(part))) return undefined;
  const flags = key.flags ?? {};
  if (Object.keys(flags).some((flag) => !NEUTRAL_FLAGS.has(flag))) return undefined;
  if (flags.presence !== undefined && flags.presence !== 'required' && flags.presence !== 'optional') return undefined;
  let fallback: CompiledKey['fallback'];
  if ('default' in flags) {
    const value = flags.default;
    if (value === null || typeof value === 'object' || typeof value === 'function') return undefined;
    fallback = { value };
  }
  const check = key.type === 'string' ? stringCheck(key.rules)
    : key.type === 'number' ? numberCheck(key.rules)
      : key.type === 'boolean' ? booleanCheck(key.rules)
        : undefined;
  return check ? { name, check, required: flags.presence === 'required', fallback } : undefined;
}

/**
 * The plain check of an object schema of simple keys: the validated value
 * (a new object), or undefined when joi must decide. Undefined when the
 * schema is not of that kind.
 */
export function compileSimpleObject(schema: Schema): ((value: unknown) => Record<string, unknown> | undefined) | undefined {
  const description = schema.describe() as KeyDescription & { keys?: Record<string, KeyDescription> };
  if (description.type !== 'object' || !description.keys) return undefined;
  if (Object.keys(description).some((part) => part !== 'type' && part !== 'keys' && part !== 'flags')) return undefined;
  if (Object.keys(description.flags ?? {}).some((flag) => flag !== 'description' && flag !== 'label')) return undefined;
  const keys = new Map<string, CompiledKey>();
  for (const [name, key] of Object.entries(description.keys)) {
    const compiled = compileKey(name, key);
    if (!compiled) return undefined;
    keys.set(name, compiled);
  }
  const expected = [...keys.values()];
  return (value) => {
    if (value === null || typeof value !== 'object') return undefined;
    const input = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of expected) {
      const raw = input[key.name];
      if (raw === undefined) {
        if (key.required) return undefined;
        if (key.fallback) out[key.name] = key.fallback.value;
        continue;
      }
      const checked = key.check(raw);
      if (checked === UNSURE) return undefined;
      out[key.name] = checked;
    }
    for (const name in input) if (!keys.has(name)) return undefined;
    return out;
  };
}

/** A params or query validator with its joi schema (the OpenAPI document reads the schema). */
export type FastValidator = ((value: unknown, options: Joi.ValidationOptions) => unknown) & { schema: Schema };

/** The joi schema of a route's params or query validation, compiled or not. */
export function joiSchemaOf(validation: unknown): Schema | undefined {
  if (Joi.isSchema(validation)) return validation as Schema;
  const schema = (validation as Partial<FastValidator> | undefined)?.schema;
  return typeof validation === 'function' && Joi.isSchema(schema) ? schema : undefined;
}

/** Route validation options that change nothing joi accepts: the server's own (abortEarly only). */
function plainOptions(options: unknown): boolean {
  return options === undefined || options === null || Object.keys(options as object).every((key) => key === 'abortEarly');
}

/**
 * Compiles the params and query validation of every route registered so far
 * (call it once all plugins are registered). Returns how many were compiled.
 */
export function compileParameterValidation(server: Server): number {
  let compiled = 0;
  for (const route of server.table()) {
    const validate = route.settings.validate as Record<string, unknown> | undefined;
    if (!validate || !plainOptions(validate.options)) continue;
    for (const source of ['params', 'query'] as const) {
      const schema = validate[source];
      if (!Joi.isSchema(schema)) continue;
      const check = compileSimpleObject(schema as Schema);
      if (!check) continue;
      const joi = schema as Schema;
      const validator: FastValidator = Object.assign(
        (value: unknown, options: Joi.ValidationOptions) => check(value) ?? joi.validateAsync(value, options),
        { schema: joi },
      );
      validate[source] = validator as unknown as Lifecycle.Method;
      compiled++;
    }
  }
  return compiled;
}
