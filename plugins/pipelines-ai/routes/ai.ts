// The /api/v1/ai routes. Handlers hand over to the services.
import type { ServerRoute } from '@hapi/hapi';
import { principalOf, tenantOf, TENANT_SQL_NOTES } from 'agent-platform/sdk';
import { editor, member } from '../access.ts';
import * as s from '../schemas.ts';
import type { ComposeRequest, ComposeService } from '../services/compose.ts';
import type { SqlService } from '../services/sql.ts';
import type { createSuggestService, TargetField } from '../services/suggest.ts';

const tags = ['api', 'ai'];
type SuggestService = ReturnType<typeof createSuggestService>;

export function aiRoutes(suggest: SuggestService, sql: SqlService, compose: ComposeService): ServerRoute[] {
  const post = (path: string, description: string, platform: typeof member, payload: unknown, response: unknown, handler: ServerRoute['handler'], notes?: string): ServerRoute => ({
    method: 'POST', path: `/api/v1/ai/${path}`,
    options: { auth: 'bearer', tags, description, notes, plugins: { platform }, validate: { payload: payload as never }, response: { schema: response as never } },
    handler,
  });
  const MODEL_NOTE = 'Needs a model (LLM_BASE_URL): without one 503 MODEL_NOT_CONFIGURED. The model\'s output is validated before it is returned (one repair round-trip; then 502 MODEL_OUTPUT_INVALID naming the problems).';
  return [
    post('suggest-target-schema', 'Suggest a target schema for a readable dataset from its column names, types and sample values (the model when configured)', member,
      s.targetSchemaRequest, s.targetSchemaResult, (request) => suggest.targetSchema(tenantOf(request), request.payload as never)),
    post('suggest-field-mappings', 'Suggest how a readable dataset\'s columns map onto target fields (name similarity, type compatibility, value patterns; the model when configured)', member,
      s.mappingsRequest, s.mappingsResult, (request) => {
        const body = request.payload as { source_dataset: string; target_dataset?: string; target_fields?: TargetField[] };
        return suggest.fieldMappings(tenantOf(request), body);
      }),
    post('suggest-pattern-params', 'Fill a transform or source pattern\'s JSON-Schema parameters from a readable dataset\'s columns (deterministic)', member,
      s.patternParamsRequest, s.patternParamsResult, async (request) => {
        const body = request.payload as { dataset_id: string; pattern_kind: 'transform' | 'source'; pattern_id?: string; params_schema?: Record<string, unknown> };
        const schema = body.params_schema ?? await suggest.patternSchema(body.pattern_kind, body.pattern_id!);
        return suggest.patternParams(tenantOf(request), { dataset_id: body.dataset_id, params_schema: schema });
      }),
    post('review-sql', 'Review SQL: parse errors with line and column, lint findings (SELECT *, cartesian joins, non-deterministic functions, unreadable datasets); deterministic', member,
      s.reviewRequest, s.reviewResult, (request) => sql.review(tenantOf(request), (request.payload as { sql: string }).sql), TENANT_SQL_NOTES),
    post('generate-transform', 'Draft a SQL transform from a request over given datasets (the model; the SQL is parsed and checked before it is returned)', editor,
      s.generateRequest, s.generateResult, (request) => sql.generateTransform(tenantOf(request), request.payload as never), MODEL_NOTE),
    post('fix-ci-failure', 'Fix SQL that failed in CI, from the failure and the parser\'s errors (the model; the fix is parsed and checked before it is returned)', editor,
      s.fixRequest, s.fixResult, (request) => sql.fixCiFailure(tenantOf(request), request.payload as never), MODEL_NOTE),
    post('publish-transform', 'Create a transform from a reviewed draft; refused (422 REVIEW_HAS_ERRORS, with the blocking findings) while its review has errors', editor,
      s.publishRequest, s.publishResult, async (request, h) => {
        const published = await sql.publishTransform(tenantOf(request), principalOf(request), request.payload as never);
        return h.response(published).code(201);
      }, TENANT_SQL_NOTES),
    post('compose-pipeline', 'Compose a pipeline draft from a request (asynchronous: 202 with an execution id; poll GET /ai/compose-pipeline/{execution_id}/status); the DAG is validated before the draft is stored', editor,
      s.composeRequest, s.composition, async (request, h) => h.response(await compose.start(tenantOf(request), principalOf(request), request.payload as ComposeRequest)).code(202), MODEL_NOTE),
    {
      method: 'GET', path: '/api/v1/ai/compose-pipeline/{execution_id}/status',
      options: {
        auth: 'bearer', tags, description: 'A compose-pipeline execution: queued, running, succeeded (the validated draft) or failed (the error)',
        plugins: { platform: editor }, validate: { params: s.executionParams }, response: { schema: s.composition },
      },
      handler: (request) => compose.status(tenantOf(request), (request.params as { execution_id: string }).execution_id),
    },
  ];
}
