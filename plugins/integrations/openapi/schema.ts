// Turns an OpenAPI schema (Swagger 2.0, OpenAPI 3.0 or 3.1 dialect, already
// dereferenced, possibly circular) into a JSON Schema for agents' tool
// definitions and for the registry's argument validation (ajv, draft-07).
//
// Choices, all in favour of what a caller may send rather than what the API
// might reject: oneOf becomes anyOf (branches that accept the same value
// would otherwise fail "exactly one"), allOf of objects is merged into one
// object, `default` goes into the description (ajv would otherwise fill it in
// and send it), read-only properties are left out of requests, formats and
// patterns that do not compile on the linear-time engine (RE2: no
// backreferences, no lookaround) are dropped, and recursion and very deep or
// large schemas are cut off with a permissive `{}`.
import { linearPatternProblem } from 'agent-platform/sdk';
import type { JsonSchema } from './model.ts';

const KNOWN_FORMATS = new Set([
  'date', 'time', 'date-time', 'duration', 'uri', 'uri-reference', 'uri-template', 'url', 'email', 'hostname',
  'ipv4', 'ipv6', 'regex', 'uuid', 'json-pointer', 'relative-json-pointer', 'byte', 'int32', 'int64', 'float',
  'double', 'password', 'binary',
]);
const MAX_DEPTH = 6;
const MAX_NODES = 600;
const MAX_DESCRIPTION = 1000;
const COPIED_NUMBERS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'];

export interface ConvertOptions {
  /** OpenAPI 3.0's `nullable` (3.1 uses type arrays; Swagger 2.0 has x-nullable). */
  nullableKeyword: boolean;
}

interface State {
  options: ConvertOptions;
  ancestors: Set<object>;
  nodes: number;
}

type Schema = Record<string, any>;

const isObject = (value: unknown): value is Schema => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Kept only when it is a JavaScript pattern that also runs on the linear-time engine (RE2) the registry validates with. */
function validPattern(pattern: unknown): pattern is string {
  if (typeof pattern !== 'string') return false;
  try {
    new RegExp(pattern, 'u');
  } catch {
    return false;
  }
  return linearPatternProblem(pattern) === undefined;
}

function describe(source: Schema): string | undefined {
  let text = typeof source.description === 'string' ? source.description : typeof source.title === 'string' ? source.title : '';
  if (source.default !== undefined) {
    const shown = JSON.stringify(source.default);
    if (shown !== undefined && shown.length <= 200) text = `${text}${text ? ' ' : ''}(default: ${shown})`;
  }
  if (!text) return undefined;
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}

function typeOf(source: Schema, options: ConvertOptions): string | string[] | undefined {
  let type = source.type;
  if (type === 'file') type = 'string';
  if (Array.isArray(type)) type = type.filter((t) => typeof t === 'string').map((t) => (t === 'file' ? 'string' : t));
  else if (typeof type !== 'string') type = undefined;
  const nullable = (options.nullableKeyword && source.nullable === true) || source['x-nullable'] === true;
  if (nullable && type !== undefined) {
    const list = Array.isArray(type) ? type : [type];
    if (!list.includes('null')) type = [...list, 'null'];
  }
  return type;
}

/** allOf parts that are all objects become one object schema (additionalProperties: false would break the parts). */
function mergedAllOf(source: Schema): Schema | undefined {
  const parts = source.allOf as unknown[];
  if (!parts.every((part) => isObject(part) && isObjectLike(part))) return undefined;
  const merged: Schema = { type: 'object', properties: {}, required: [] };
  for (const part of [source, ...(parts as Schema[])]) {
    if (isObject(part.properties)) Object.assign(merged.properties, part.properties);
    if (Array.isArray(part.required)) merged.required.push(...part.required);
    if (part !== source && part.allOf) return undefined; // nested allOf: keep it as it is
  }
  if (typeof source.description === 'string') merged.description = source.description;
  return merged;
}

export function isObjectLike(schema: Schema): boolean {
  if (schema.type === 'object' || isObject(schema.properties)) return true;
  if (Array.isArray(schema.type)) return schema.type.includes('object');
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const parts = schema[key];
    if (Array.isArray(parts) && parts.length > 0 && parts.every((part) => isObject(part) && isObjectLike(part))) return true;
  }
  return false;
}

function convertNode(source: unknown, depth: number, state: State): JsonSchema {
  if (!isObject(source)) return {};
  if (state.ancestors.has(source)) return { description: 'Recursive structure (not expanded)' };
  if (depth > MAX_DEPTH || state.nodes >= MAX_NODES) return {};
  state.nodes++;
  if (Array.isArray(source.allOf)) {
    const merged = mergedAllOf(source);
    if (merged) {
      state.ancestors.add(source);
      try {
        return convertNode(merged, depth, state);
      } finally {
        state.ancestors.delete(source);
      }
    }
  }
  state.ancestors.add(source);
  try {
    const out: JsonSchema = {};
    const type = typeOf(source, state.options);
    if (type !== undefined) out.type = type;
    const description = describe(source);
    if (description) out.description = description;
    if (Array.isArray(source.enum) && source.enum.length > 0) {
      // ajv refuses an empty or repeating enum; a nullable one must also allow null.
      const values = [...new Map(source.enum.map((value: unknown) => [JSON.stringify(value), value])).values()];
      if (Array.isArray(type) && type.includes('null') && !values.includes(null)) values.push(null);
      out.enum = values;
    }
    if (source.const !== undefined) out.const = source.const;
    if (typeof source.format === 'string' && KNOWN_FORMATS.has(source.format)) out.format = source.format;
    for (const key of COPIED_NUMBERS) if (Number.isInteger(source[key]) && source[key] >= 0) out[key] = source[key];
    if (typeof source.multipleOf === 'number' && source.multipleOf > 0) out.multipleOf = source.multipleOf;
    if (source.uniqueItems === true) out.uniqueItems = true;
    if (validPattern(source.pattern)) out.pattern = source.pattern;
    numericBounds(source, out);
    if (isObject(source.properties)) {
      const properties: Record<string, JsonSchema> = {};
      for (const [name, property] of Object.entries(source.properties)) {
        if (isObject(property) && property.readOnly === true) continue;
        properties[name] = convertNode(property, depth + 1, state);
      }
      out.properties = properties;
      if (Array.isArray(source.required)) {
        const required = [...new Set(source.required.filter((name: unknown) => typeof name === 'string' && name in properties))];
        if (required.length > 0) out.required = required;
      }
    }
    if (typeof source.additionalProperties === 'boolean') out.additionalProperties = source.additionalProperties;
    else if (isObject(source.additionalProperties)) out.additionalProperties = convertNode(source.additionalProperties, depth + 1, state);
    if (isObject(source.items)) out.items = convertNode(source.items, depth + 1, state);
    else if (Array.isArray(source.items)) out.items = source.items.map((item: unknown) => convertNode(item, depth + 1, state));
    for (const [from, to] of [['allOf', 'allOf'], ['anyOf', 'anyOf'], ['oneOf', 'anyOf']] as const) {
      if (Array.isArray(source[from]) && source[from].length > 0) {
        const parts = source[from].map((part: unknown) => convertNode(part, depth + 1, state));
        out[to] = [...((out[to] as JsonSchema[] | undefined) ?? []), ...parts];
      }
    }
    return out;
  } finally {
    state.ancestors.delete(source);
  }
}

/** Draft-4 style boolean exclusive bounds (Swagger 2.0, OpenAPI 3.0) become draft-07 numbers. */
function numericBounds(source: Schema, out: JsonSchema): void {
  const minimum = typeof source.minimum === 'number' ? source.minimum : undefined;
  const maximum = typeof source.maximum === 'number' ? source.maximum : undefined;
  if (typeof source.exclusiveMinimum === 'number') out.exclusiveMinimum = source.exclusiveMinimum;
  else if (source.exclusiveMinimum === true && minimum !== undefined) out.exclusiveMinimum = minimum;
  else if (minimum !== undefined) out.minimum = minimum;
  if (typeof source.exclusiveMaximum === 'number') out.exclusiveMaximum = source.exclusiveMaximum;
  else if (source.exclusiveMaximum === true && maximum !== undefined) out.exclusiveMaximum = maximum;
  else if (maximum !== undefined) out.maximum = maximum;
}

export function toJsonSchema(source: unknown, options: ConvertOptions): JsonSchema {
  return convertNode(source, 0, { options, ancestors: new Set(), nodes: 0 });
}

/**
 * The properties a request body offers as separate arguments: an object
 * schema's own properties, merged across allOf, and across anyOf/oneOf
 * variants (where a property is required only if every variant requires it).
 * Undefined when the body is not an object.
 */
export function objectShape(schema: unknown): { properties: Record<string, Schema>; required: string[]; additional: boolean } | undefined {
  if (!isObject(schema) || !isObjectLike(schema)) return undefined;
  const properties: Record<string, Schema> = {};
  const required = new Set<string>();
  const take = (part: Schema) => {
    if (isObject(part.properties)) {
      for (const [name, property] of Object.entries(part.properties)) {
        if (isObject(property) && property.readOnly === true) continue;
        properties[name] ??= property as Schema;
      }
    }
  };
  take(schema);
  if (Array.isArray(schema.required)) for (const name of schema.required) required.add(String(name));
  const seen = new Set<object>([schema]);
  const visitAllOf = (parts: unknown[]) => {
    for (const part of parts) {
      if (!isObject(part) || seen.has(part)) continue;
      seen.add(part);
      take(part);
      if (Array.isArray(part.required)) for (const name of part.required) required.add(String(name));
      if (Array.isArray(part.allOf)) visitAllOf(part.allOf);
    }
  };
  if (Array.isArray(schema.allOf)) visitAllOf(schema.allOf);
  for (const key of ['anyOf', 'oneOf']) {
    const variants = schema[key];
    if (!Array.isArray(variants) || variants.length === 0) continue;
    let common: Set<string> | undefined;
    for (const variant of variants) {
      if (!isObject(variant)) continue;
      const inner = objectShape(variant);
      if (!inner) continue;
      for (const [name, property] of Object.entries(inner.properties)) properties[name] ??= property;
      const mine = new Set(inner.required);
      common = common ? new Set([...common].filter((name) => mine.has(name))) : mine;
    }
    for (const name of common ?? []) required.add(name);
  }
  const additional = schema.additionalProperties !== false;
  return { properties, required: [...required].filter((name) => name in properties), additional };
}
