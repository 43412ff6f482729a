// The schema-match workflow: a source dataset's columns matched to a target
// schema by name and type, deterministically. Names are compared normalized
// (case, separators, camelCase split into tokens); an exact normalized match
// scores 1, otherwise the token overlap (Jaccard) when it reaches 0.5. Each
// target takes its best source (ties: declaration order), each source once.
export interface Column { name: string; type: string }

export interface SchemaMatch {
  mappings: { source: string; target: string; score: number; source_type: string; target_type: string; type_compatible: boolean }[];
  unmatched_source: string[];
  unmatched_target: string[];
}

const tokens = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
const normalized = (name: string) => tokens(name).join('');

const FAMILIES: [RegExp, string][] = [
  [/^(smallint|integer|int|int2|int4|int8|bigint|numeric|decimal|double|double precision|real|float|float4|float8|number)/, 'number'],
  [/^(timestamp|timestamptz|date|time)/, 'time'],
  [/^(bool|boolean)$/, 'boolean'],
  [/^(json|jsonb|object|array)$/, 'json'],
  [/^(uuid)$/, 'uuid'],
];
const family = (type: string) => FAMILIES.find(([pattern]) => pattern.test(type.toLowerCase()))?.[1] ?? 'text';

/** Text takes anything; otherwise the families must agree. */
export const typeCompatible = (source: string, target: string) => family(target) === 'text' || family(source) === family(target);

export function nameScore(a: string, b: string): number {
  if (normalized(a) === normalized(b)) return 1;
  const left = new Set(tokens(a));
  const right = new Set(tokens(b));
  const shared = [...left].filter((token) => right.has(token)).length;
  const score = shared / new Set([...left, ...right]).size;
  return score >= 0.5 ? Math.round(score * 100) / 100 : 0;
}

export function matchSchemas(source: Column[], target: Column[]): SchemaMatch {
  const used = new Set<string>();
  const mappings: SchemaMatch['mappings'] = [];
  for (const wanted of target) {
    let best: { column: Column; score: number } | null = null;
    for (const column of source) {
      if (used.has(column.name)) continue;
      const score = nameScore(column.name, wanted.name) * (typeCompatible(column.type, wanted.type) ? 1 : 0.5);
      if (score > 0 && (!best || score > best.score)) best = { column, score };
    }
    if (!best) continue;
    used.add(best.column.name);
    mappings.push({
      source: best.column.name, target: wanted.name, score: best.score, source_type: best.column.type, target_type: wanted.type,
      type_compatible: typeCompatible(best.column.type, wanted.type),
    });
  }
  const mapped = new Set(mappings.map((m) => m.target));
  return { mappings, unmatched_source: source.filter((c) => !used.has(c.name)).map((c) => c.name), unmatched_target: target.filter((c) => !mapped.has(c.name)).map((c) => c.name) };
}
