// POST /transforms/review and /transforms/preview: SQL that is not a
// transform yet (the console's editor), analyzed or run on a sample of its
// inputs; nothing is stored. Editors only, as validating and previewing are.
import type { ServerRoute } from '@hapi/hapi';
import { Joi, tenantOf, TENANT_SQL_NOTES } from 'agent-platform/sdk';
import { editor } from '../access.ts';
import { parameters, sqlText } from '../schemas.ts';
import { DRAFT_SAMPLE_ROWS, type DraftService } from '../services/drafts.ts';

const tags = ['api', 'transforms'];
const column = Joi.object({ name: Joi.string(), type: Joi.string() }).label('DraftColumn');
const sqlError = Joi.object({ code: Joi.string(), message: Joi.string(), line: Joi.number(), column: Joi.number() }).label('DraftSqlError');
const draft = Joi.object({
  sql: sqlText.required(),
  parameters: parameters.description('Declarations as a transform\'s ($N is the Nth); their defaults (or bare values) are the values'),
}).label('TransformDraft');
const previewBody = draft.keys({ limit: Joi.number().integer().min(1).max(1000).default(50).description('Rows returned') }).label('TransformDraftPreview');
const review = Joi.object({
  ok: Joi.boolean().description('true: no error (warnings may remain)'),
  analysis: Joi.object({
    ok: Joi.boolean(), errors: Joi.array().items(sqlError).description('Errors with their 1-based line and column where the SQL has one'),
    inputs: Joi.array().items(Joi.string()).description('The readable datasets it reads'), columns: Joi.array().items(column),
  }).label('DraftAnalysis'),
  findings: Joi.array().items(Joi.object({
    rule: Joi.string(), severity: Joi.string().valid('error', 'warning'), message: Joi.string(), line: Joi.number(), column: Joi.number(),
  }).label('DraftFinding')).description('The errors again as findings, then lint warnings (select-star, cartesian-join, non-deterministic)'),
}).label('TransformDraftReview');
const preview = Joi.object({
  inputs: Joi.array().items(Joi.string()),
  sample_rows_per_input: Joi.number().integer().description('Each input is read on at most this many rows'),
  columns: Joi.array().items(column),
  rows: Joi.array().items(Joi.object().unknown(true)),
}).label('TransformDraftPreviewResult');

export function draftRoutes(drafts: DraftService): ServerRoute[] {
  return [
    {
      method: 'POST', path: '/api/v1/transforms/review',
      options: {
        auth: 'bearer', tags, plugins: { platform: editor }, validate: { payload: draft }, response: { schema: review },
        description: 'Review SQL before saving it: errors with line and column, lint warnings, the input datasets and output columns (nothing is stored)',
        notes: `An error is an answer, not a failure: 200 with ok false. ${TENANT_SQL_NOTES}`,
      },
      handler: (request) => {
        const body = request.payload as { sql: string; parameters?: Record<string, unknown> };
        return drafts.review(tenantOf(request), body.sql, body.parameters);
      },
    },
    {
      method: 'POST', path: '/api/v1/transforms/preview',
      options: {
        auth: 'bearer', tags, plugins: { platform: editor }, validate: { payload: previewBody }, response: { schema: preview },
        description: `Run SQL before saving it, read-only, each input read on at most ${DRAFT_SAMPLE_ROWS} rows: its first rows (nothing is stored)`,
        notes: `SQL with errors is 400 with the first error's code and \`errors\` (as review gives them); PostgreSQL's refusal is 400 TRANSFORM_SQL_FAILED. ${TENANT_SQL_NOTES}`,
      },
      handler: (request) => {
        const body = request.payload as { sql: string; parameters?: Record<string, unknown>; limit: number };
        return drafts.preview(tenantOf(request), body.sql, body.parameters, body.limit);
      },
    },
  ];
}
