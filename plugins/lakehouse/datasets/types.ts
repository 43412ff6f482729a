// The lake's column types: a fixed set, so DDL never carries a type name that
// came from outside. Rows described by a JSON Schema (a stream's schema) map
// onto them: integer → bigint, number → double precision (numeric with
// format "decimal"), boolean, string → text (timestamptz, date or uuid by its
// format), object and array → jsonb.
export const LAKE_TYPES = {
  text: 'text',
  bigint: 'bigint',
  double: 'double precision',
  numeric: 'numeric',
  boolean: 'boolean',
  timestamptz: 'timestamptz',
  date: 'date',
  uuid: 'uuid',
  jsonb: 'jsonb',
} as const;

export type LakeType = keyof typeof LAKE_TYPES;

export function isLakeType(value: unknown): value is LakeType {
  return typeof value === 'string' && Object.hasOwn(LAKE_TYPES, value);
}

/** One property of a dataset's rows: its name, the column holding it, its type. */
export interface LakeColumn {
  name: string;
  column: string;
  type: LakeType;
}

type JsonSchema = Record<string, unknown>;

/** The JSON type of a property schema, leaving out "null" (["null", "integer"] is an integer). */
function jsonTypeOf(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t) => t !== 'null');
  if (Array.isArray(schema.anyOf)) {
    for (const option of schema.anyOf as JsonSchema[]) {
      const found = option && typeof option === 'object' ? jsonTypeOf(option) : undefined;
      if (found && found !== 'null') return found;
    }
  }
  return undefined;
}

export function lakeTypeOfSchema(schema: unknown): LakeType {
  if (!schema || typeof schema !== 'object') return 'jsonb';
  const property = schema as JsonSchema;
  const format = typeof property.format === 'string' ? property.format : undefined;
  switch (jsonTypeOf(property)) {
    case 'integer': return 'bigint';
    case 'number': return format === 'decimal' ? 'numeric' : 'double';
    case 'boolean': return 'boolean';
    case 'string':
      if (format === 'date-time') return 'timestamptz';
      if (format === 'date') return 'date';
      if (format === 'uuid') return 'uuid';
      return 'text';
    case 'object':
    case 'array':
      return 'jsonb';
    default:
      return property.type === undefined && property.anyOf === undefined ? 'jsonb' : 'text';
  }
}

/** The JSON Schema of a lake column's values (a dataset's schema, read back). */
export function jsonSchemaOfType(type: LakeType): JsonSchema {
  switch (type) {
    case 'bigint': return { type: ['null', 'integer'] };
    case 'double': return { type: ['null', 'number'] };
    case 'numeric': return { type: ['null', 'string'], format: 'decimal' };
    case 'boolean': return { type: ['null', 'boolean'] };
    case 'timestamptz': return { type: ['null', 'string'], format: 'date-time' };
    case 'date': return { type: ['null', 'string'], format: 'date' };
    case 'uuid': return { type: ['null', 'string'], format: 'uuid' };
    case 'jsonb': return {};
    default: return { type: ['null', 'string'] };
  }
}
