// A stream's JSON Schema inferred from sample records (API and file patterns
// have no declared schema): each property's type over the samples, nulls
// ignored; integers stay integers, ISO timestamps and dates get their format,
// mixed types become strings, objects and arrays stay JSON.
import type { JsonSchemaObject } from './types.ts';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function kindOf(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return DATE_TIME.test(value) ? 'date-time' : DATE.test(value) ? 'date' : 'string';
  return Array.isArray(value) ? 'array' : 'object';
}

function merge(a: string | undefined, b: string): string {
  if (a === undefined || a === b) return b;
  if ((a === 'integer' && b === 'number') || (a === 'number' && b === 'integer')) return 'number';
  if ((a === 'object' || a === 'array') && (b === 'object' || b === 'array')) return 'object';
  return 'string';
}

function schemaOf(kind: string | undefined): JsonSchemaObject {
  switch (kind) {
    case 'integer': case 'number': case 'boolean': return { type: ['null', kind] };
    case 'date-time': case 'date': return { type: ['null', 'string'], format: kind };
    case 'object': case 'array': return { type: ['null', 'object', 'array'] };
    default: return { type: ['null', 'string'] };
  }
}

export function inferSchema(records: Record<string, unknown>[]): JsonSchemaObject {
  const kinds = new Map<string, string | undefined>();
  for (const record of records) {
    for (const [key, value] of Object.entries(record)) {
      const known = kinds.get(key);
      kinds.set(key, value === null || value === undefined ? known : merge(known, kindOf(value)));
    }
  }
  return { type: 'object', properties: Object.fromEntries([...kinds].map(([key, kind]) => [key, schemaOf(kind)])) };
}

/** The value at a dot path ("data.items"); the whole value for an empty path. */
export function atPath(value: unknown, path: string | undefined): unknown {
  if (!path) return value;
  let current = value;
  for (const segment of path.split('.')) {
    if (!current || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** Whether a record is past the cursor (numbers as numbers, anything else as text; ISO timestamps compare as text). */
export function pastCursor(value: unknown, cursor: string | null, inclusive: boolean): boolean {
  if (cursor === null) return true;
  if (value === null || value === undefined) return false;
  const compared = typeof value === 'number' && !Number.isNaN(Number(cursor)) ? value - Number(cursor) : String(value).localeCompare(cursor);
  return inclusive ? compared >= 0 : compared > 0;
}
