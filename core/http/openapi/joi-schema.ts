// joi → JSON Schema 2020-12, walking the joi schema objects themselves (not
// their describe()) so that a schema used in two places is recognised as the
// same object. A schema with an `.id()` or `.label()` (an object, array or
// alternatives) becomes a named component through `Names`; everything else is
// inlined. Constructs: objects (required keys, additionalProperties from
// unknown(), pattern keys), arrays, strings (lengths, patterns, formats),
// numbers and integers (bounds), booleans, dates, binaries, valid() → enum,
// allow(null) → a 'null' type, alternatives and when() → oneOf/anyOf/allOf,
// defaults, descriptions and examples.
import type { Schema } from 'joi';
import { constrains, isJsonValue, withNull, type JsonSchema } from './json-schema.ts';

/** The named-schema registry the converter hands named joi schemas to (components.ts). */
export interface Names {
  /** The `$ref` of `joi` under `name`, building its body with `build` the first time. */
  named(joi: Schema, name: string, build: () => JsonSchema): JsonSchema;
}

export interface ConvertOptions {
  /** Named joi schemas become `$ref`s through this; without it everything is inlined. */
  names?: Names;
  /** A multipart/form-data body: untyped (`any`) fields are files. */
  multipart?: boolean;
}

// The parts of a joi schema object this module reads; joi's own describe() reads the same ones.
interface JoiRule { name: string; args?: Record<string, any> | null }
interface JoiNode {
  type: string;
  _flags: Record<string, any>;
  _rules: JoiRule[];
  _valids: { _values: Set<unknown> } | null;
  $_terms: Record<string, any[] | null | undefined>;
}

const node = (schema: Schema) => schema as unknown as JoiNode;
const NAMED_TYPES = new Set(['object', 'array', 'alternatives']);

/** The name a joi schema carries (`.id()` first, then `.label()`), when it is of a kind that becomes a component. */
export function nameOf(schema: Schema): string | undefined {
  const { _flags: flags, type } = node(schema);
  if (!NAMED_TYPES.has(type)) return undefined;
  const name = flags.id ?? flags.label;
  return typeof name === 'string' && /^[A-Za-z0-9._-]+$/.test(name) ? name : undefined;
}

/** Whether a key of an object may be left out. */
export function isRequired(schema: Schema): boolean {
  return node(schema)._flags.presence === 'required';
}

export function isForbidden(schema: Schema): boolean {
  return node(schema)._flags.presence === 'forbidden';
}

/** The keys of a joi object schema, in order (none for other types or an object with any keys). */
export function keysOf(schema: Schema): { key: string; schema: Schema }[] {
  const { type, $_terms: terms } = node(schema);
  if (type !== 'object' || !terms.keys) return [];
  return terms.keys as { key: string; schema: Schema }[];
}

export function toJsonSchema(schema: Schema, options: ConvertOptions = {}): JsonSchema {
  const name = options.names ? nameOf(schema) : undefined;
  if (name && options.names) {
    const ref = options.names.named(schema, name, () => decorate(schema, body(schema, options), false));
    return allowsNull(schema) ? withNull(ref) : ref;
  }
  return decorate(schema, body(schema, options), true);
}

function allowsNull(schema: Schema): boolean {
  return node(schema)._valids?._values.has(null) ?? false;
}

/** The flags every type shares: valid()/allow() values, null, default, description, examples. */
function decorate(schema: Schema, base: JsonSchema, withNullable: boolean): JsonSchema {
  const { _flags: flags, _valids: valids, $_terms: terms } = node(schema);
  let out = base;
  const values = valids ? [...valids._values].filter((value) => value !== null && isJsonValue(value)) : [];
  if (flags.only && values.length > 0) {
    out = { ...enumBase(out, values), enum: values };
  } else if (values.length > 0 && (constrains(out) || !values.every((value) => matchesType(out.type, value)))) {
    out = { anyOf: [out, { enum: values }] };
  }
  if (withNullable && allowsNull(schema)) out = withNull(out);
  if (typeof flags.description === 'string') out = { ...out, description: flags.description };
  if (flags.default !== undefined && isJsonValue(flags.default)) out = { ...out, default: flags.default };
  const examples = (terms.examples ?? []).filter(isJsonValue);
  if (examples.length > 0) out = { ...out, examples };
  return out;
}

/** An enum keeps the type only when every value is of it. */
function enumBase(base: JsonSchema, values: unknown[]): JsonSchema {
  const type = base.type;
  if (typeof type === 'string' && values.every((value) => matchesType(type, value))) return { type };
  const types = [...new Set(values.map(jsonType))];
  return types.length === 1 ? { type: types[0] } : {};
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(type: unknown, value: unknown): boolean {
  if (type === undefined) return true;
  const actual = jsonType(value);
  const types = Array.isArray(type) ? type : [type];
  return types.includes(actual) || (actual === 'integer' && types.includes('number'));
}

function body(schema: Schema, options: ConvertOptions): JsonSchema {
  const joi = node(schema);
  switch (joi.type) {
    case 'string': return stringSchema(joi);
    case 'number': return numberSchema(joi);
    case 'boolean': return { type: 'boolean' };
    case 'date': return joi._flags.format === 'javascript' || joi._flags.format === 'unix' ? { type: 'number' } : { type: 'string', format: 'date-time' };
    case 'binary': return binarySchema(joi);
    case 'object': return objectSchema(joi, options);
    case 'array': return arraySchema(joi, options);
    case 'alternatives': return alternativesSchema(joi, options);
    case 'any': return whensSchema(joi, options) ?? (options.multipart ? { type: 'string', contentMediaType: 'application/octet-stream' } : {});
    default: return whensSchema(joi, options) ?? {};
  }
}

function rules(joi: JoiNode): JoiRule[] {
  return joi._rules ?? [];
}

const STRING_FORMATS: Record<string, string> = {
  email: 'email', uri: 'uri', guid: 'uuid', uuid: 'uuid', isoDate: 'date-time', hostname: 'hostname', isoDuration: 'duration',
};
const STRING_PATTERNS: Record<string, string> = { alphanum: '^[a-zA-Z0-9]*$', token: '^[a-zA-Z0-9_]*$', hex: '^[a-fA-F0-9]*$' };

function stringSchema(joi: JoiNode): JsonSchema {
  const out: JsonSchema = { type: 'string' };
  const patterns: string[] = [];
  for (const rule of rules(joi)) {
    const args = rule.args ?? {};
    if (rule.name === 'min' && typeof args.limit === 'number') out.minLength = args.limit;
    else if (rule.name === 'max' && typeof args.limit === 'number') out.maxLength = args.limit;
    else if (rule.name === 'length' && typeof args.limit === 'number') out.minLength = out.maxLength = args.limit;
    else if (rule.name === 'pattern' && args.regex instanceof RegExp && !args.options?.invert) patterns.push(args.regex.source);
    else if (rule.name in STRING_FORMATS) out.format = STRING_FORMATS[rule.name];
    else if (rule.name in STRING_PATTERNS) patterns.push(STRING_PATTERNS[rule.name]);
    else if (rule.name === 'base64') out.contentEncoding = 'base64';
    else if (rule.name === 'ip') out.format = args.options?.version?.length === 1 && args.options.version[0] === 'ipv6' ? 'ipv6' : 'ipv4';
  }
  if (patterns.length > 0) out.pattern = patterns[0];
  if (patterns.length > 1) out.allOf = patterns.slice(1).map((pattern) => ({ pattern }));
  return out;
}

function numberSchema(joi: JoiNode): JsonSchema {
  const out: JsonSchema = { type: 'number' };
  for (const rule of rules(joi)) {
    const limit = rule.args?.limit ?? rule.args?.base;
    const numeric = typeof limit === 'number';
    if (rule.name === 'integer') out.type = 'integer';
    else if (rule.name === 'port') Object.assign(out, { type: 'integer', minimum: 0, maximum: 65535 });
    else if (rule.name === 'min' && numeric) out.minimum = limit;
    else if (rule.name === 'max' && numeric) out.maximum = limit;
    else if (rule.name === 'greater' && numeric) out.exclusiveMinimum = limit;
    else if (rule.name === 'less' && numeric) out.exclusiveMaximum = limit;
    else if (rule.name === 'sign') out[rule.args?.sign === 'negative' ? 'exclusiveMaximum' : 'exclusiveMinimum'] = 0;
    else if (rule.name === 'multiple' && numeric) out.multipleOf = limit;
  }
  return out;
}

function binarySchema(joi: JoiNode): JsonSchema {
  const out: JsonSchema = { type: 'string', contentMediaType: 'application/octet-stream' };
  for (const rule of rules(joi)) {
    if (rule.name === 'max' && typeof rule.args?.limit === 'number') out['x-maxBytes'] = rule.args.limit;
  }
  return out;
}

function objectSchema(joi: JoiNode, options: ConvertOptions): JsonSchema {
  const out: JsonSchema = { type: 'object' };
  const keys = joi.$_terms.keys as { key: string; schema: Schema }[] | null | undefined;
  // An object's keys are never multipart files themselves below the top level.
  const inner: ConvertOptions = { ...options, multipart: false };
  if (keys) {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const { key, schema } of keys) {
      if (isForbidden(schema)) continue;
      properties[key] = toJsonSchema(schema, options.multipart ? options : inner);
      if (isRequired(schema)) required.push(key);
    }
    out.properties = properties;
    if (required.length > 0) out.required = required;
  }
  const patterns = (joi.$_terms.patterns ?? []) as { regex?: RegExp | string; schema?: Schema; rule?: Schema }[];
  const patternProperties: Record<string, JsonSchema> = {};
  let additional: JsonSchema | undefined;
  for (const pattern of patterns) {
    const value = pattern.rule ? toJsonSchema(pattern.rule, inner) : {};
    const regex = pattern.regex instanceof RegExp ? pattern.regex.source : pattern.regex ?? (pattern.schema ? regexOf(pattern.schema) : undefined);
    if (regex) patternProperties[regex] = value;
    else additional = value;
  }
  if (Object.keys(patternProperties).length > 0) out.patternProperties = patternProperties;
  if (additional) out.additionalProperties = additional;
  else if (keys && !joi._flags.unknown && patterns.length === 0) out.additionalProperties = false;
  for (const rule of rules(joi)) {
    if (rule.name === 'min' && typeof rule.args?.limit === 'number') out.minProperties = rule.args.limit;
    else if (rule.name === 'max' && typeof rule.args?.limit === 'number') out.maxProperties = rule.args.limit;
    else if (rule.name === 'length' && typeof rule.args?.limit === 'number') out.minProperties = out.maxProperties = rule.args.limit;
  }
  return out;
}

/** The regular expression a pattern key schema (`Joi.string().pattern(…)`) checks, when it checks just one. */
function regexOf(schema: Schema): string | undefined {
  const joi = node(schema);
  if (joi.type !== 'string') return undefined;
  const pattern = stringSchema(joi).pattern;
  return typeof pattern === 'string' ? pattern : undefined;
}

function arraySchema(joi: JoiNode, options: ConvertOptions): JsonSchema {
  const out: JsonSchema = { type: 'array' };
  const inner: ConvertOptions = { ...options, multipart: false };
  const items = ((joi.$_terms.items ?? []) as Schema[]).filter((item) => !isForbidden(item));
  const ordered = ((joi.$_terms.ordered ?? []) as Schema[]);
  if (ordered.length > 0) {
    out.prefixItems = ordered.map((item) => toJsonSchema(item, inner));
    out.items = items.length === 0 ? false : itemsOf(items, inner);
  } else if (items.length > 0) {
    out.items = itemsOf(items, inner);
  }
  for (const rule of rules(joi)) {
    if (rule.name === 'min' && typeof rule.args?.limit === 'number') out.minItems = rule.args.limit;
    else if (rule.name === 'max' && typeof rule.args?.limit === 'number') out.maxItems = rule.args.limit;
    else if (rule.name === 'length' && typeof rule.args?.limit === 'number') out.minItems = out.maxItems = rule.args.limit;
    else if (rule.name === 'unique') out.uniqueItems = true;
  }
  return out;
}

function itemsOf(items: Schema[], options: ConvertOptions): JsonSchema {
  return items.length === 1 ? toJsonSchema(items[0], options) : { anyOf: items.map((item) => toJsonSchema(item, options)) };
}

interface JoiMatch { schema?: Schema; ref?: unknown; is?: Schema; then?: Schema; otherwise?: Schema; switch?: { then?: Schema; otherwise?: Schema }[] }

/** The schemas a conditional may end in (forbidden branches left out). */
function branches(match: JoiMatch): Schema[] {
  if (match.schema) return [match.schema];
  const out: Schema[] = [];
  for (const branch of match.switch ?? [match]) {
    if (branch.then) out.push(branch.then);
    if (branch.otherwise) out.push(branch.otherwise);
  }
  return out.filter((schema) => !isForbidden(schema));
}

function combine(keyword: 'oneOf' | 'anyOf' | 'allOf', schemas: JsonSchema[]): JsonSchema {
  const unique = schemas.filter((schema, i) => schemas.findIndex((other) => JSON.stringify(other) === JSON.stringify(schema)) === i);
  if (unique.length === 0) return {};
  if (unique.length === 1) return unique[0];
  return { [keyword]: unique };
}

function alternativesSchema(joi: JoiNode, options: ConvertOptions): JsonSchema {
  const matches = (joi.$_terms.matches ?? []) as JoiMatch[];
  const mode = joi._flags.match;
  // joi tries the alternatives in order and takes the first that matches (`any`): anyOf; match('one') is oneOf.
  const keyword = mode === 'one' ? 'oneOf' : mode === 'all' ? 'allOf' : 'anyOf';
  return combine(keyword, matches.flatMap(branches).map((schema) => toJsonSchema(schema, options)));
}

/** `Joi.when(…)` on a schema of no type of its own: whichever branch applies. */
function whensSchema(joi: JoiNode, options: ConvertOptions): JsonSchema | undefined {
  const whens = (joi.$_terms.whens ?? []) as JoiMatch[];
  if (whens.length === 0) return undefined;
  return combine('anyOf', whens.flatMap(branches).map((schema) => toJsonSchema(schema, options)));
}
