// Transform patterns: parameterized transforms with a
// JSON Schema of parameters. validate checks parameters, compiles the SQL and
// analyzes it; preview runs it on a sample of each input in a read-only
// transaction (nothing is stored); sync reloads the built-ins idempotently.
import { createHash } from 'node:crypto';
import { badRequest, createAjv, notFound } from 'agent-platform/sdk';
import type { SqlAnalysis } from '../api.ts';
import type { TransformsContext } from './context.ts';
import type { CompiledPattern, PatternColumns, TransformPattern } from '../library/pattern-types.ts';
import { PATTERNS } from '../library/patterns.ts';
import { catalogStore } from '../store/catalog.ts';
import { tenantSqlStore } from '../store/tenant-sql.ts';

const ajv = createAjv({ useDefaults: true });
const checksum = (pattern: TransformPattern) => createHash('sha256').update(JSON.stringify({ ...pattern, compile: pattern.compile.toString() })).digest('hex');
const PREVIEW_SAMPLE_ROWS = 1000;

export interface PatternValidation {
  valid: boolean;
  errors: { code: string; message: string; line?: number; column?: number }[];
  sql: string | null;
  parameters: Record<string, unknown>;
  unique_key: string[] | null;
  analysis: SqlAnalysis | null;
}

export function createPatternService(context: TransformsContext) {
  const { core, lake, analyzer } = context;
  const byId = new Map(PATTERNS.map((p) => [p.id, p]));

  function patternOf(id: string): TransformPattern {
    const pattern = byId.get(id);
    if (!pattern) throw notFound(`Transform pattern ${id} does not exist`, 'PATTERN_NOT_FOUND');
    return pattern;
  }

  const columnsFor = (tenantId: string): PatternColumns => ({
    of: async (datasetId) => (await lake().readable(tenantId, datasetId)).columns.map((c) => ({ name: c.name, type: c.type })),
  });

  async function validate(tenantId: string, id: string, given: Record<string, unknown>, sampleRows?: number): Promise<PatternValidation & { values?: unknown[] ; compiledSql?: string }> {
    const pattern = patternOf(id);
    const params = structuredClone(given);
    const empty = { sql: null, parameters: {}, unique_key: null, analysis: null };
    if (!ajv.validate(pattern.parameters_schema, params)) {
      return { valid: false, errors: (ajv.errors ?? []).map((e) => ({ code: 'PATTERN_PARAMETERS_INVALID', message: `${e.instancePath || 'parameters'} ${e.message}` })), ...empty };
    }
    let compiled: CompiledPattern;
    try {
      compiled = await pattern.compile(params, columnsFor(tenantId));
    } catch (err) {
      const payload = (err as { output?: { statusCode: number; payload: { code?: string; message: string } } }).output;
      if (!payload || payload.statusCode >= 500) throw err;
      return { valid: false, errors: [{ code: payload.payload.code ?? 'PATTERN_INVALID', message: payload.payload.message }], ...empty };
    }
    const result = await analyzer.compile(tenantId, compiled.sql, compiled.parameters, undefined, { sampleRows });
    return {
      valid: result.analysis.ok, errors: result.analysis.errors, sql: compiled.sql, parameters: compiled.parameters,
      unique_key: compiled.unique_key ?? null, analysis: result.analysis, values: result.compiled?.values, compiledSql: result.compiled?.sql,
    };
  }

  return {
    sync: () => catalogStore.syncPatterns(core, PATTERNS.map((p) => ({
      id: p.id, name: p.name, description: p.description, category: p.category, parameters_schema: JSON.stringify(p.parameters_schema), checksum: checksum(p),
    }))),
    list: async (category?: string) => ({ items: await catalogStore.patterns(core, category) }),
    categories: async () => ({ items: await catalogStore.patternCategories(core) }),
    async get(id: string) {
      const row = await catalogStore.pattern(core, id);
      if (!row || !byId.has(id)) throw notFound(`Transform pattern ${id} does not exist`, 'PATTERN_NOT_FOUND');
      return row;
    },

    /** api.getTransformPattern: as GET /transform-patterns/{id}, null when there is none. */
    async find(id: string) {
      const row = byId.has(id) ? await catalogStore.pattern(core, id) : undefined;
      return row ? { id: row.id, name: row.name, description: row.description, category: row.category, parametersSchema: row.parameters_schema as Record<string, unknown> } : null;
    },

    async validate(tenantId: string, id: string, given: Record<string, unknown>): Promise<PatternValidation> {
      const { values: _values, compiledSql: _sql, ...result } = await validate(tenantId, id, given);
      return result;
    },

    /** Runs the pattern on a sample of each input (read-only transaction): its first rows; nothing is stored. */
    async preview(tenantId: string, id: string, given: Record<string, unknown>, limit: number) {
      const result = await validate(tenantId, id, given, PREVIEW_SAMPLE_ROWS);
      if (!result.valid || !result.compiledSql) {
        const error = badRequest(`The pattern's parameters are invalid: ${result.errors.map((e) => e.message).join('; ')}`.slice(0, 2000), result.errors[0]?.code ?? 'PATTERN_INVALID');
        (error.output.payload as Record<string, unknown>).errors = result.errors;
        throw error;
      }
      try {
        const { columns, rows } = await tenantSqlStore.preview(core, tenantId, result.compiledSql, result.values ?? [], limit);
        return { pattern_id: id, sql: result.sql, parameters: result.parameters, sample_rows_per_input: PREVIEW_SAMPLE_ROWS, columns, rows };
      } catch (err) {
        const pgCode = (err as { code?: unknown }).code;
        if (typeof pgCode !== 'string' || pgCode.length !== 5) throw err;
        throw badRequest(`The preview failed: ${(err as Error).message}`.slice(0, 2000), 'TRANSFORM_SQL_FAILED');
      }
    },
  };
}

export type PatternService = ReturnType<typeof createPatternService>;
