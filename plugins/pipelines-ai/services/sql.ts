// SQL assistance: review-sql (the transforms plugin's parser and
// lint: no model needed), generate-transform and fix-ci-failure (the model
// drafts, the parser checks: SQL that does not analyze cleanly gets one
// repair round-trip, then a clear error), publish-transform (a reviewed draft
// becomes a transform; refused while the review has errors).
import { domainError, type Principal } from 'agent-platform/sdk';
import type { SqlAnalysis, SqlFinding } from '../../pipelines-transforms/api.ts';
import type { AiContext } from './context.ts';
import { askJson, modelRequired, type ChatMessage } from '../llm/model.ts';

const SQL_RULES = 'Write ONE read-only PostgreSQL SELECT (or WITH … SELECT). Tables are dataset ids written as they are (e.g. raw.acme.orders); only the datasets given may be read; no SELECT *, no functions with side effects, no random()/now().';

function analysisProblems(analysis: SqlAnalysis): string[] {
  return analysis.errors.map((e) => `${e.code}: ${e.message}${e.line ? ` (line ${e.line}, column ${e.column ?? 1})` : ''}`);
}

export function createSqlService(context: AiContext) {
  /** The columns of the datasets the model may use (each under the read rule). */
  async function datasetsFor(tenantId: string, ids: string[]) {
    const found = [];
    for (const id of ids) {
      const { dataset, columns } = await context.profile(tenantId, id);
      found.push({ id: dataset.id, columns: columns.map((c) => ({ name: c.name, type: c.type, pattern: c.pattern })) });
    }
    return found;
  }

  /** Asks for {sql, …} and accepts only SQL the transforms plugin analyzes cleanly. */
  async function draftSql<T extends { sql: string }>(tenantId: string, messages: ChatMessage[], what: string) {
    const model = modelRequired(context.model, what);
    let analysis: SqlAnalysis | undefined;
    const draft = await askJson<T>(model, messages, async (value) => {
      const sql = (value as { sql?: unknown }).sql;
      if (typeof sql !== 'string' || !sql.trim()) return ['"sql" must be a non-empty string'];
      analysis = await context.transforms().analyzeSql(tenantId, sql);
      return analysisProblems(analysis);
    });
    return { draft, analysis: analysis! };
  }

  async function review(tenantId: string, sql: string) {
    const { analysis, findings } = await context.transforms().reviewSql(tenantId, sql);
    return { ok: analysis.ok && !findings.some((f) => f.severity === 'error'), analysis, findings };
  }

  return {
    review,

    async generateTransform(tenantId: string, input: { prompt: string; inputs: string[]; name?: string }) {
      modelRequired(context.model, 'generate-transform');
      const datasets = await datasetsFor(tenantId, input.inputs);
      const { draft, analysis } = await draftSql<{ sql: string; name?: string; description?: string }>(tenantId, [
        { role: 'system', content: `You write SQL transforms. ${SQL_RULES} Answer one JSON object: {"name": [A-Za-z0-9_], "description": short, "sql": the query}.` },
        { role: 'user', content: JSON.stringify({ request: input.prompt, datasets }) },
      ], 'generate-transform');
      const name = input.name ?? (typeof draft.name === 'string' && /^[A-Za-z0-9_-]{1,100}$/.test(draft.name) ? draft.name : 'generated_transform');
      return { source: 'model', draft: { name, description: typeof draft.description === 'string' ? draft.description.slice(0, 2000) : '', sql: draft.sql }, analysis };
    },

    async fixCiFailure(tenantId: string, input: { sql: string; error: string; inputs: string[] }) {
      modelRequired(context.model, 'fix-ci-failure');
      const datasets = await datasetsFor(tenantId, input.inputs);
      const before = await context.transforms().analyzeSql(tenantId, input.sql);
      const { draft, analysis } = await draftSql<{ sql: string; explanation?: string }>(tenantId, [
        { role: 'system', content: `You fix SQL transforms that failed in CI. ${SQL_RULES} Answer one JSON object: {"sql": the fixed query, "explanation": what was wrong and what changed}.` },
        { role: 'user', content: JSON.stringify({ sql: input.sql, ci_error: input.error, parser_errors: analysisProblems(before), datasets }) },
      ], 'fix-ci-failure');
      return { source: 'model', sql: draft.sql, explanation: typeof draft.explanation === 'string' ? draft.explanation.slice(0, 4000) : '', analysis };
    },

    /** Reviews, then creates the transform in one tenant transaction; a review with errors refuses (422 REVIEW_HAS_ERRORS). */
    async publishTransform(tenantId: string, _principal: Principal, spec: Record<string, unknown> & { sql: string }) {
      const reviewed = await review(tenantId, spec.sql);
      if (!reviewed.ok) {
        const error = domainError(422, 'The draft\'s review has errors: fix them before publishing', 'REVIEW_HAS_ERRORS');
        const blocking: (SqlFinding | SqlAnalysis['errors'][number])[] = [...reviewed.analysis.errors, ...reviewed.findings.filter((f) => f.severity === 'error')];
        (error.output.payload as unknown as Record<string, unknown>).findings = blocking;
        throw error;
      }
      const transform = await context.transforms().createTransform(tenantId, spec);
      return { transform, findings: reviewed.findings };
    },
  };
}

export type SqlService = ReturnType<typeof createSqlService>;
