// SQL analysis (api.analyzeSql, reviewSql) and compilation: parse with the
// real PostgreSQL parser, apply the statement rules and the function
// allowlist, resolve every relation to a dataset the tenant may read
// (lakehouse read rule), bind parameters, rewrite dataset references onto the
// current snapshot, then describe the output with LIMIT 0 as the tenant
// (core.tenantSql: a request's interactive budget unless a job gives its
// own; past it 422 SQL_TIMEOUT, not an analysis error).
import type { CoreServices, TenantSqlOptions } from 'agent-platform/sdk';
import type { LakehouseApi, DatasetInfo } from '../../lakehouse/api.ts';
import type { SqlAnalysis, SqlFinding } from '../api.ts';
import { outputNames } from '../analysis/columns.ts';
import { lintFindings } from '../analysis/lint.ts';
import { parseSql, tokensOf } from '../analysis/parse.ts';
import { bindParameters } from '../analysis/parameters.ts';
import { positionAt } from '../analysis/position.ts';
import { parameterRefs, relationsOf } from '../analysis/relations.ts';
import { rewrite } from '../analysis/rewrite.ts';
import { ruleErrors } from '../analysis/rules.ts';
import type { SqlError } from '../analysis/types.ts';
import { tenantSqlStore } from '../store/tenant-sql.ts';

/** SQL ready to run: rewritten onto datasets, with its parameter values and described output. */
export interface CompiledSql {
  sql: string;
  values: unknown[];
  columns: { name: string; type: string }[];
  inputs: string[];
}

function boomCode(err: unknown): string | undefined {
  return (err as { output?: { payload?: { code?: string } } }).output?.payload?.code;
}

export function createAnalyzer(core: CoreServices, lake: () => LakehouseApi) {
  /**
   * `sampleRows`: each input reads at most that many rows (pattern previews).
   * `relationMap`: dataset id → the dataset read instead, matched on the parse
   * tree's names, so every spelling of a reference (quoted or not) is mapped.
   * `budget`: how the describe runs (default: a request's, interactive).
   */
  async function compile(tenantId: string, text: string, parameters?: Record<string, unknown>, given?: Record<string, unknown>,
    extra: { sampleRows?: number; relationMap?: Record<string, string>; budget?: TenantSqlOptions } = {})
    : Promise<{ analysis: SqlAnalysis; compiled?: CompiledSql }> {
    const { sampleRows, relationMap, budget = { mode: 'interactive' } } = extra;
    const parsed = await parseSql(text);
    if (!parsed.ok) return { analysis: { ok: false, errors: [parsed.error], inputs: [], columns: [] } };
    const { tree } = parsed;
    const errors: SqlError[] = ruleErrors(text, tree);
    const relations = relationsOf(text, tree);
    errors.push(...relations.errors);
    const refs = relations.refs.map((ref) => (relationMap && Object.hasOwn(relationMap, ref.datasetId) ? { ...ref, datasetId: relationMap[ref.datasetId]! } : ref));
    const params = parameterRefs(tree);
    const highest = Math.max(0, ...params.map((p) => p.number));
    const bound = bindParameters(parameters, given, highest);
    // PostgreSQL refuses values for placeholders the statement does not have: declared but unused ones stay behind.
    const values = bound.values.slice(0, highest);
    errors.push(...bound.errors);

    const datasets = new Map<string, DatasetInfo>();
    for (const ref of refs) {
      if (datasets.has(ref.datasetId)) continue;
      try {
        datasets.set(ref.datasetId, await lake().readable(tenantId, ref.datasetId));
      } catch (err) {
        const code = boomCode(err);
        if (!code) throw err;
        errors.push({ code, message: (err as Error).message, ...positionAt(text, ref.location) });
      }
    }
    const inputs = [...datasets.keys()];
    const fallbackColumns = () => outputNames(tree).map((name) => ({ name, type: 'unknown' }));
    if (errors.length > 0) return { analysis: { ok: false, errors, inputs, columns: fallbackColumns() } };

    const rewritten = rewrite(text, await tokensOf(text),
      refs.map((ref) => {
        const select = lake().asOf(datasets.get(ref.datasetId)!);
        return { ref, select: sampleRows === undefined ? select : `${select} LIMIT ${Math.trunc(sampleRows)}` };
      }),
      params.map((param) => ({ location: param.location, cast: bound.casts[param.number - 1]! })));
    try {
      const columns = await tenantSqlStore.describe(core, tenantId, rewritten, values, budget);
      return { analysis: { ok: true, errors: [], inputs, columns }, compiled: { sql: rewritten, values, columns, inputs } };
    } catch (err) {
      // A PostgreSQL error is the SQL's; SQL_TIMEOUT and SQL_CONCURRENCY_LIMIT (Boom) answer the request as they are.
      const pgCode = (err as { code?: unknown }).code;
      if (typeof pgCode !== 'string' || pgCode.length !== 5) throw err;
      return { analysis: { ok: false, errors: [{ code: 'SQL_INVALID', message: (err as Error).message }], inputs, columns: fallbackColumns() } };
    }
  }

  return {
    compile,

    analyzeSql: async (tenantId: string, text: string, parameters?: Record<string, unknown>) => (await compile(tenantId, text, parameters)).analysis,

    /** Errors as findings (syntax with position, rule violations, unreadable datasets), then lint warnings; `parameters`: the declarations $N binds to. */
    async reviewSql(tenantId: string, text: string, parameters?: Record<string, unknown>): Promise<{ analysis: SqlAnalysis; findings: SqlFinding[] }> {
      const { analysis } = await compile(tenantId, text, parameters);
      const findings: SqlFinding[] = analysis.errors.map((error) => ({
        rule: error.code === 'SQL_SYNTAX' ? 'syntax' : error.code.startsWith('DATASET_') ? 'unreadable-dataset' : error.code.toLowerCase().replaceAll('_', '-'),
        severity: 'error', message: error.message,
        ...(error.line !== undefined ? { line: error.line, column: error.column } : {}),
      }));
      const parsed = await parseSql(text);
      if (parsed.ok) findings.push(...lintFindings(text, parsed.tree));
      return { analysis, findings };
    },
  };
}

export type Analyzer = ReturnType<typeof createAnalyzer>;
