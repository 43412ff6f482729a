// Mapping suggestions (POST /backing-datasets/suggest-mappings): a
// deterministic matching of a dataset's columns onto a type's properties by
// name, type and sample values, so the same inputs always give the same
// answer. Each (property, column) pair scores:
//   name   +0.6 equal once normalized (case, _ and - dropped), +0.3 one contains the other (2+ characters)
//   type   +0.2 compatible lake type, -0.3 incompatible
//   sample +0.2 × the share of non-null sample values fitting the property's format or enum (when it has one)
// then pairs are taken greedily, best first (ties by property then column
// name), each property and column once, from a score of 0.4 up.
import type { LakeColumn, LakeType } from '../../lakehouse/api.ts';
import { UUID_PATTERN } from 'agent-platform/sdk';

const THRESHOLD = 0.4;

const normalize = (name: string) => name.toLowerCase().replaceAll(/[^a-z0-9]/g, '');

const COMPATIBLE: Record<string, LakeType[]> = {
  string: ['text', 'uuid', 'timestamptz', 'date'],
  integer: ['bigint'],
  number: ['bigint', 'double', 'numeric'],
  boolean: ['boolean'],
  object: ['jsonb'],
  array: ['jsonb'],
};

const FORMATS: Record<string, RegExp> = {
  email: /^[^@\s]+@[^@\s]+\.[^@\s]+$/,
  uuid: UUID_PATTERN,
  date: /^\d{4}-\d{2}-\d{2}$/,
  'date-time': /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/,
  uri: /^[a-z][a-z0-9+.-]*:\/\/\S+$/i,
};

interface PropertySchema { type?: string | string[]; format?: string; enum?: unknown[] }

function sampleFit(property: PropertySchema, values: unknown[]): number | undefined {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (!present.length) return undefined;
  if (property.enum) return present.filter((v) => property.enum!.some((e) => e === v)).length / present.length;
  const format = property.format && FORMATS[property.format];
  if (format) return present.filter((v) => format.test(v instanceof Date ? v.toISOString() : String(v))).length / present.length;
  return undefined;
}

function score(name: string, property: PropertySchema, column: LakeColumn, samples: unknown[]): { score: number; reasons: string[] } {
  const reasons: string[] = [];
  let total = 0;
  const [a, b] = [normalize(name), normalize(column.name)];
  if (a === b) { total += 0.6; reasons.push('name'); } else if (Math.min(a.length, b.length) >= 2 && (a.includes(b) || b.includes(a))) { total += 0.3; reasons.push('similar name'); }
  const types = (Array.isArray(property.type) ? property.type : [property.type ?? 'string']).filter((t) => t !== 'null');
  if (types.some((t) => COMPATIBLE[t]?.includes(column.type))) { total += 0.2; reasons.push('type'); } else total -= 0.3;
  const fit = sampleFit(property, samples);
  if (fit !== undefined && fit > 0) { total += 0.2 * fit; reasons.push('sample values'); }
  return { score: Math.round(total * 100) / 100, reasons };
}

export function suggestMappings(type: { properties: Record<string, unknown>; keys: string[] }, columns: LakeColumn[], sample: Record<string, unknown>[]) {
  const properties = (type.properties.properties ?? {}) as Record<string, PropertySchema>;
  const pairs = Object.entries(properties).flatMap(([property, schema]) => columns.map((column) => ({
    property, column: column.name, ...score(property, schema, column, sample.map((row) => row[column.name])),
  })));
  pairs.sort((x, y) => y.score - x.score || x.property.localeCompare(y.property) || x.column.localeCompare(y.column));
  const taken = { properties: new Set<string>(), columns: new Set<string>() };
  const mappings: SuggestedMapping[] = [];
  for (const pair of pairs) {
    if (pair.score < THRESHOLD || taken.properties.has(pair.property) || taken.columns.has(pair.column)) continue;
    taken.properties.add(pair.property);
    taken.columns.add(pair.column);
    mappings.push({ property: pair.property, column: pair.column, score: pair.score, reasons: pair.reasons });
  }
  return withKeys(type, mappings);
}

export interface SuggestedMapping { property: string; column: string; score: number; reasons: string[] }

/** The suggestion around chosen mappings (rules' or model's): sorted, the key columns when every key is mapped, the properties left. */
export function withKeys(type: { properties: Record<string, unknown>; keys: string[] }, mappings: SuggestedMapping[]) {
  const properties = (type.properties.properties ?? {}) as Record<string, PropertySchema>;
  const columnOf = new Map(mappings.map((m) => [m.property, m.column]));
  const keyColumns = type.keys.every((key) => columnOf.has(key)) ? type.keys.map((key) => columnOf.get(key)!) : [];
  return {
    mappings: [...mappings].sort((x, y) => x.property.localeCompare(y.property)),
    key_columns: keyColumns,
    unmapped_properties: Object.keys(properties).filter((p) => !columnOf.has(p)).sort(),
  };
}
