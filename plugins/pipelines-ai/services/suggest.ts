// Suggestions from a readable dataset: a target schema, field
// mappings onto a target, and the parameters of a pattern. Deterministic
// rules (names, types, value patterns) always work; with a model configured,
// target schemas, mappings and pattern params come from the model, checked
// against the dataset's real columns (and the pattern's schema) before they are returned.
import type { LakeType } from '../../lakehouse/api.ts';
import type { AiContext } from './context.ts';
import { askJson, type Model } from '../llm/model.ts';
import { checkParams, ruleParams } from '../suggestions/pattern-params.ts';
import { patternSchema } from '../suggestions/pattern-schema.ts';
import type { ColumnProfile, ValuePattern } from '../suggestions/profile.ts';
import { nameSimilarity, snakeCase, wordsOf } from '../suggestions/similarity.ts';

export interface TargetField { name: string; type?: string; description?: string }
export interface Mapping { target: string; source: string; confidence: number; reasons: string[]; cast?: string }

const LAKE_TYPES = ['text', 'bigint', 'double', 'numeric', 'boolean', 'timestamptz', 'date', 'uuid', 'jsonb'];
const TYPE_OF_PATTERN: Record<ValuePattern, LakeType> = {
  integer: 'bigint', number: 'double', boolean: 'boolean', date: 'date', datetime: 'timestamptz', uuid: 'uuid', json: 'jsonb',
  email: 'text', url: 'text', phone: 'text', text: 'text',
};
const FORMATS: Partial<Record<ValuePattern, string>> = { email: 'email', url: 'uri', phone: 'phone' };

/** The family of a type name, lake or JSON Schema or plain words ('string', 'timestamp', 'email'…). */
function familyOf(type: string | undefined): string | undefined {
  if (!type) return undefined;
  const t = type.toLowerCase();
  if (/int|serial/.test(t)) return 'integer';
  if (/double|float|numeric|decimal|number|real|money/.test(t)) return 'number';
  if (/bool/.test(t)) return 'boolean';
  if (/timestamp|datetime|date-time/.test(t)) return 'datetime';
  if (/date/.test(t)) return 'date';
  if (/uuid/.test(t)) return 'uuid';
  if (/json|object|array/.test(t)) return 'json';
  if (/mail/.test(t)) return 'email';
  return 'text';
}

/** The family a profiled column really holds (its values' pattern, else its type). */
function columnFamily(column: ColumnProfile): string {
  return column.pattern !== 'text' ? familyOf(column.pattern === 'datetime' ? 'timestamp' : column.pattern)! : familyOf(column.type)!;
}

function typeScore(target: string | undefined, column: ColumnProfile): { score: number; cast?: string; reason?: string } {
  const wanted = familyOf(target);
  if (!wanted) return { score: 0.5 };
  const held = columnFamily(column);
  if (wanted === held) return { score: 1, reason: `values are ${held}` };
  if (wanted === 'text') return { score: 0.7, reason: 'any value reads as text' };
  if (wanted === 'number' && held === 'integer') return { score: 0.9, cast: 'double precision', reason: 'integers fit a number' };
  if ((wanted === 'date' && held === 'datetime') || (wanted === 'datetime' && held === 'date')) return { score: 0.8, cast: wanted === 'date' ? 'date' : 'timestamptz', reason: 'dates and datetimes convert' };
  if (column.type === 'text' && column.pattern !== 'text' && familyOf(column.pattern) === wanted) return { score: 0.9, cast: target, reason: `text holding ${column.pattern} values` };
  return { score: 0, reason: `${held} values do not fit ${wanted}` };
}

/** Rules: each target gets the best free source column by name (60%), type (25%) and value pattern (15%). */
export function ruleMappings(targets: TargetField[], columns: ColumnProfile[]): Mapping[] {
  const candidates: Mapping[] = [];
  for (const target of targets) {
    for (const column of columns) {
      const name = nameSimilarity(target.name, column.name);
      const type = typeScore(target.type, column);
      const patternHint = wordsOf(target.name).some((word) => word === column.pattern) ? 1 : 0;
      const score = 0.6 * name + 0.25 * type.score + 0.15 * patternHint;
      if (name < 0.3 || type.score === 0) continue;
      const reasons = [`name similarity ${name.toFixed(2)}`, ...(type.reason ? [type.reason] : []), ...(patternHint ? [`values look like ${column.pattern}`] : [])];
      candidates.push({ target: target.name, source: column.name, confidence: Math.round(score * 100) / 100, reasons, ...(type.cast ? { cast: type.cast } : {}) });
    }
  }
  candidates.sort((a, b) => b.confidence - a.confidence);
  const usedTargets = new Set<string>();
  const usedSources = new Set<string>();
  const chosen: Mapping[] = [];
  for (const candidate of candidates) {
    if (candidate.confidence < 0.4 || usedTargets.has(candidate.target) || usedSources.has(candidate.source)) continue;
    usedTargets.add(candidate.target);
    usedSources.add(candidate.source);
    chosen.push(candidate);
  }
  return targets.flatMap((target) => chosen.filter((mapping) => mapping.target === target.name));
}

export function ruleTargetSchema(columns: ColumnProfile[]) {
  const fields = columns.map((column) => {
    const type = column.type === 'text' ? TYPE_OF_PATTERN[column.pattern] : column.type;
    const format = FORMATS[column.pattern];
    return {
      name: snakeCase(column.name), type, ...(format ? { format } : {}), source_column: column.name,
      required: column.sampled > 0 && column.nulls === 0,
      reason: column.type === 'text' && type !== 'text' ? `text holding ${column.pattern} values` : `a ${column.type} column`,
    };
  });
  const unique = (column: ColumnProfile) => column.sampled > 0 && column.nulls === 0 && column.distinct === column.sampled;
  const keyLike = columns.filter((column) => unique(column) && wordsOf(column.name).includes('id'));
  const key = keyLike[0] ?? columns.find(unique);
  return { fields, primary_key: key ? [snakeCase(key.name)] : [] };
}

/**
 * The model's mappings of `described.source_columns` onto `described.targets`
 * (the rules' answer given as a hint), checked against the names: each target
 * and source a real one and used once, a confidence from 0 to 1 (one repair
 * round-trip, then 502 MODEL_OUTPUT_INVALID).
 */
export async function modelMappings(
  model: Model,
  described: { source_columns: { name: string }[]; targets: { name: string }[] },
  rules: Mapping[],
): Promise<Mapping[]> {
  const targetNames = new Set(described.targets.map((target) => target.name));
  const sourceNames = new Set(described.source_columns.map((column) => column.name));
  type Answer = { mappings: { target: string; source: string; confidence: number; reason?: string; cast?: string }[] };
  const answer = await askJson<Answer>(model, [
    { role: 'system', content: 'You map the columns of a source dataset onto target fields. Answer one JSON object: {"mappings": [{"target": a target field, "source": a source column, "confidence": 0..1, "reason": short, "cast": optional SQL type}]}. Leave out targets with no good source; use each source and each target at most once.' },
    { role: 'user', content: JSON.stringify({ ...described, suggestion_by_rules: rules }) },
  ], async (value) => {
    const list = (value as Answer).mappings;
    if (!Array.isArray(list)) return ['"mappings" must be an array'];
    const problems = list.flatMap((m, i) => [
      ...(targetNames.has(m?.target) ? [] : [`mappings[${i}].target must be one of the target fields`]),
      ...(sourceNames.has(m?.source) ? [] : [`mappings[${i}].source must be one of the source columns`]),
      ...(typeof m?.confidence === 'number' && m.confidence >= 0 && m.confidence <= 1 ? [] : [`mappings[${i}].confidence must be a number from 0 to 1`]),
    ]);
    if (new Set(list.map((m) => m?.source)).size !== list.length) problems.push('a source column is used twice');
    if (new Set(list.map((m) => m?.target)).size !== list.length) problems.push('a target field is used twice');
    return problems;
  });
  return answer.mappings.map((m) => ({
    target: m.target, source: m.source, confidence: m.confidence, reasons: typeof m.reason === 'string' && m.reason ? [m.reason] : [],
    ...(typeof m.cast === 'string' && m.cast ? { cast: m.cast } : {}),
  }));
}

export function createSuggestService(context: AiContext) {
  const { model } = context;

  async function targetsOf(tenantId: string, input: { target_dataset?: string; target_fields?: TargetField[] }): Promise<TargetField[]> {
    if (input.target_fields) return input.target_fields;
    const { dataset } = await context.profile(tenantId, input.target_dataset!);
    return dataset.columns.map((column) => ({ name: column.name, type: column.type }));
  }

  return {
    async targetSchema(tenantId: string, input: { dataset_id: string; instructions?: string }) {
      const { dataset, columns } = await context.profile(tenantId, input.dataset_id);
      if (!model) return { dataset_id: dataset.id, source: 'rules', ...ruleTargetSchema(columns) };
      const names = new Set(columns.map((column) => column.name));
      type Answer = { fields: { name: string; type: string; source_column: string; required?: boolean; reason?: string }[]; primary_key?: string[] };
      const answer = await askJson<Answer>(model, [
        { role: 'system', content: `You design a clean target schema for a dataset. Answer one JSON object: {"fields": [{"name": snake_case, "type": one of ${LAKE_TYPES.join('|')}, "source_column": an existing column, "required": boolean, "reason": short}], "primary_key": [field names]}.` },
        { role: 'user', content: JSON.stringify({ columns, suggestion_by_rules: ruleTargetSchema(columns), instructions: input.instructions ?? '' }) },
      ], async (value) => {
        const fields = (value as Answer).fields;
        if (!Array.isArray(fields) || !fields.length) return ['"fields" must be a non-empty array'];
        const problems = fields.flatMap((field, i) => [
          ...(typeof field?.name === 'string' && /^[a-z_][a-z0-9_]{0,62}$/.test(field.name) ? [] : [`fields[${i}].name must be snake_case`]),
          ...(LAKE_TYPES.includes(field?.type) ? [] : [`fields[${i}].type must be one of ${LAKE_TYPES.join(', ')}`]),
          ...(names.has(field?.source_column) ? [] : [`fields[${i}].source_column must be one of the dataset's columns`]),
        ]);
        const fieldNames = new Set(fields.map((field) => field?.name));
        const key = (value as Answer).primary_key ?? [];
        if (!Array.isArray(key) || key.some((name) => !fieldNames.has(name))) problems.push('"primary_key" must name fields');
        return problems;
      });
      return { dataset_id: dataset.id, source: 'model', fields: answer.fields, primary_key: answer.primary_key ?? [] };
    },

    async fieldMappings(tenantId: string, input: { source_dataset: string; target_dataset?: string; target_fields?: TargetField[] }) {
      const { columns } = await context.profile(tenantId, input.source_dataset);
      const targets = await targetsOf(tenantId, input);
      let mappings: Mapping[];
      let source = 'rules';
      if (!model) mappings = ruleMappings(targets, columns);
      else {
        mappings = await modelMappings(model, { source_columns: columns, targets }, ruleMappings(targets, columns));
        source = 'model';
      }
      const mapped = new Set(mappings.map((m) => m.target));
      const used = new Set(mappings.map((m) => m.source));
      return {
        source, mappings,
        unmapped_targets: targets.filter((target) => !mapped.has(target.name)).map((target) => target.name),
        unmapped_sources: columns.filter((column) => !used.has(column.name)).map((column) => column.name),
      };
    },

    /** A transform or source pattern's parameter schema (its owning plugin's api; credentials left out). */
    patternSchema: (kind: 'transform' | 'source', id: string) => patternSchema(context, kind, id),

    /** Rules fill the parameters; with a model, the model does, checked against the schema and the columns. */
    async patternParams(tenantId: string, input: { dataset_id: string; params_schema: Record<string, unknown> }) {
      const { dataset, columns } = await context.profile(tenantId, input.dataset_id);
      const rules = ruleParams(dataset.id, columns, input.params_schema);
      if (!model) {
        const { columnParams: _columns, ...shown } = rules;
        return { dataset_id: dataset.id, source: 'rules', ...shown };
      }
      const names = new Set(columns.map((column) => column.name));
      type Answer = { params: Record<string, unknown>; reasons?: Record<string, string> };
      const answer = await askJson<Answer>(model, [
        { role: 'system', content: 'You fill the parameters of a data pattern from a dataset\'s columns. Answer one JSON object: {"params": values valid under the JSON Schema, "reasons": {param: short reason}}. Parameters naming columns must name real columns.' },
        { role: 'user', content: JSON.stringify({ dataset: dataset.id, columns, params_schema: input.params_schema, suggestion_by_rules: rules.params }) },
      ], async (value) => {
        const params = (value as Answer).params;
        if (!params || typeof params !== 'object' || Array.isArray(params)) return ['"params" must be an object'];
        const checked = checkParams(input.params_schema, params);
        const notColumns = rules.columnParams.filter((name) => params[name] !== undefined
          && ![params[name]].flat().every((item) => typeof item === 'string' && names.has(item)));
        return [...checked.problems, ...notColumns.map((name) => `params.${name} must name columns of the dataset`)];
      });
      const reasons = Object.fromEntries(Object.entries(answer.reasons ?? {}).filter(([, reason]) => typeof reason === 'string'));
      const unfilled = Object.keys((input.params_schema.properties ?? {}) as object).filter((name) => answer.params[name] === undefined);
      return { dataset_id: dataset.id, source: 'model', params: answer.params, reasons, unfilled, valid: true, problems: [] as string[] };
    },
  };
}
