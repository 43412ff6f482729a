// The rules of suggest-pattern-params: a pattern's JSON-Schema parameters
// filled from a dataset's profiled columns. Parameters naming columns
// (`*_column`, `*_by`, key, time, cursor, latitude, longitude, or described as
// columns) get the most alike fitting column (a key a unique column, a time a
// date column, coordinates a numeric one); parameters naming the dataset get
// it; others their default or first allowed value. Checked against the schema.
import { badRequest, createAjv } from 'agent-platform/sdk';
import type { ColumnProfile } from './profile.ts';
import { nameSimilarity, wordsOf } from './similarity.ts';

const COLUMN_WORDS = ['column', 'columns', 'field', 'fields', 'id', 'by', 'cursor', 'time', 'latitude', 'longitude', 'partition'];
const DATASET_WORDS = ['dataset', 'input', 'table', 'source'];

type Schema = Record<string, unknown>;

function family(column: ColumnProfile): string {
  if (column.pattern === 'date' || column.pattern === 'datetime' || /date|timestamp/.test(column.type)) return 'time';
  if (['integer', 'number'].includes(column.pattern) || ['bigint', 'double', 'numeric'].includes(column.type)) return 'number';
  return 'other';
}

/** The schema's parameters validated (ajv, as every JSON Schema of the platform). */
export function checkParams(schema: Schema, params: Record<string, unknown>): { valid: boolean; problems: string[] } {
  let validate;
  try {
    validate = createAjv().compile(schema);
  } catch {
    throw badRequest('params_schema is not a valid JSON Schema', 'PARAMS_SCHEMA_INVALID');
  }
  const valid = validate(structuredClone(params)) as boolean;
  return { valid, problems: (validate.errors ?? []).map((e) => `${e.instancePath || 'params'} ${e.message ?? 'is invalid'}`) };
}

export function ruleParams(datasetId: string, columns: ColumnProfile[], paramsSchema: Schema) {
  const properties = paramsSchema.properties ?? {};
  if (typeof properties !== 'object' || Array.isArray(properties)) throw badRequest('params_schema.properties must be an object', 'PARAMS_SCHEMA_INVALID');
  const params: Record<string, unknown> = {};
  const reasons: Record<string, string> = {};
  const unfilled: string[] = [];
  const columnParams: string[] = [];
  const best = (name: string, fit: (column: ColumnProfile) => boolean) =>
    columns.filter(fit).map((column) => ({ column, score: nameSimilarity(name, column.name) })).sort((a, b) => b.score - a.score)[0];
  for (const [name, raw] of Object.entries(properties as Record<string, Schema>)) {
    const schema = raw && typeof raw === 'object' ? raw : {};
    const words = wordsOf(name);
    const isArray = schema.type === 'array';
    const columnLike = words.some((word) => COLUMN_WORDS.includes(word)) || /column|field/i.test(String(schema.description ?? ''));
    if (columnLike) {
      columnParams.push(name);
      const fit = words.includes('id') ? (c: ColumnProfile) => c.sampled > 0 && c.nulls === 0 && c.distinct === c.sampled
        : words.includes('time') || words.includes('cursor') ? (c: ColumnProfile) => family(c) === 'time'
          : words.includes('latitude') || words.includes('longitude') ? (c: ColumnProfile) => family(c) === 'number'
            : () => true;
      const found = best(name, fit) ?? best(name, () => true);
      if (!found) {
        unfilled.push(name);
        continue;
      }
      params[name] = isArray ? [found.column.name] : found.column.name;
      reasons[name] = `column ${found.column.name} (name similarity ${found.score.toFixed(2)})`;
    } else if (words.some((word) => DATASET_WORDS.includes(word))) {
      params[name] = isArray ? [datasetId] : datasetId;
      reasons[name] = 'the dataset';
    } else if (schema.default !== undefined) {
      params[name] = schema.default;
      reasons[name] = 'the default';
    } else if (Array.isArray(schema.enum) && schema.enum.length) {
      params[name] = schema.enum[0];
      reasons[name] = 'the first allowed value';
    } else unfilled.push(name);
  }
  return { params, reasons, unfilled, columnParams, ...checkParams(paramsSchema, params) };
}
