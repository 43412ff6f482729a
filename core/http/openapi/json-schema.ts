// The JSON Schema 2020-12 (OpenAPI 3.1) shape of a schema object, and the
// small helpers the converter and the document share.
export type JsonSchema = { [keyword: string]: unknown };

/** A JSON value (not a function, a joi reference, a Date or a Buffer): what may stand in `default`, `enum` and `examples`. */
export function isJsonValue(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonValue);
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return false;
    return Object.values(value as Record<string, unknown>).every(isJsonValue);
  }
  return false;
}

/** The schema's own constraints beyond its type: whether a value of the type could still be refused. */
export function constrains(schema: JsonSchema): boolean {
  return Object.keys(schema).some((keyword) => !['type', 'description', 'default', 'examples', 'title', 'deprecated'].includes(keyword));
}

/** `schema` that also accepts null. */
export function withNull(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0) return schema;
  if (typeof schema.type === 'string' && !('$ref' in schema)) {
    const out: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(schema.type)) return schema.type.includes('null') ? schema : { ...schema, type: [...schema.type, 'null'] };
  const { description, default: fallback, ...rest } = schema;
  const out: JsonSchema = { anyOf: [rest, { type: 'null' }] };
  if (description !== undefined) out.description = description;
  if (fallback !== undefined) out.default = fallback;
  return out;
}
