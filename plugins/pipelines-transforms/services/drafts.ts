// SQL not saved as a transform yet (the console's editor): review (the
// analysis's errors with their line and column, lint warnings, the inputs
// found) and preview (the first rows, each input read on a sample, in a
// read-only transaction with the interactive budget: nothing is stored).
// Parameters are declarations, as a transform's: their defaults are the values.
import { badRequest } from 'agent-platform/sdk';
import type { SqlAnalysis, SqlFinding } from '../api.ts';
import type { TransformsContext } from './context.ts';
import { tenantSqlStore } from '../store/tenant-sql.ts';

/** Rows each input is read on in a preview (as pattern previews). */
export const DRAFT_SAMPLE_ROWS = 1000;

export function createDraftService(context: TransformsContext) {
  const { core, analyzer } = context;
  return {
    async review(tenantId: string, sql: string, parameters?: Record<string, unknown>): Promise<{ ok: boolean; analysis: SqlAnalysis; findings: SqlFinding[] }> {
      const { analysis, findings } = await analyzer.reviewSql(tenantId, sql, parameters);
      return { ok: analysis.ok, analysis, findings };
    },

    async preview(tenantId: string, sql: string, parameters: Record<string, unknown> | undefined, limit: number) {
      const { analysis, compiled } = await analyzer.compile(tenantId, sql, parameters, undefined, { sampleRows: DRAFT_SAMPLE_ROWS });
      if (!compiled) {
        const error = badRequest(`The SQL has errors: ${analysis.errors.map((e) => e.message).join('; ')}`.slice(0, 2000), analysis.errors[0]?.code ?? 'SQL_INVALID');
        (error.output.payload as Record<string, unknown>).errors = analysis.errors;
        throw error;
      }
      try {
        const { columns, rows } = await tenantSqlStore.preview(core, tenantId, compiled.sql, compiled.values, limit);
        return { inputs: compiled.inputs, sample_rows_per_input: DRAFT_SAMPLE_ROWS, columns, rows };
      } catch (err) {
        const pgCode = (err as { code?: unknown }).code;
        if (typeof pgCode !== 'string' || pgCode.length !== 5) throw err;
        throw badRequest(`The preview failed: ${(err as Error).message}`.slice(0, 2000), 'TRANSFORM_SQL_FAILED');
      }
    },
  };
}

export type DraftService = ReturnType<typeof createDraftService>;
