// /sql-transforms and /transform-patterns. Members read the catalogs; editors apply, validate, preview and sync.
import type { ServerRoute } from '@hapi/hapi';
import { Joi, principalOf, tenantOf, TENANT_SQL_NOTES } from 'agent-platform/sdk';
import { editor, member } from '../access.ts';
import { transform, transformName } from '../schemas.ts';
import type { ApplyInput, LibraryService } from '../services/library.ts';
import type { PatternService } from '../services/patterns.ts';

const catalogId = Joi.string().pattern(/^[a-z0-9_]{1,63}$/);
const categoryQuery = Joi.object({ category: Joi.string().pattern(/^[a-z0-9_]{1,63}$/) });
const categories = Joi.object({ items: Joi.array().items(Joi.object({ category: Joi.string(), count: Joi.number() }).label('CatalogCategory')) }).label('CatalogCategories');
const syncResult = Joi.object({ created: Joi.number(), updated: Joi.number(), unchanged: Joi.number() }).label('CatalogSync');
const libraryEntry = Joi.object({
  id: Joi.string(), name: Joi.string(), description: Joi.string(), category: Joi.string(),
  sql_types: Joi.array().items(Joi.string()).description('Lake column types it applies to'),
  sql: Joi.string().description('Template: {{input}}, {{column}}, {{output_column}}; values as $N'),
  parameters: Joi.object().unknown(true), updated_at: Joi.date(),
}).label('SqlTransform');
const pattern = Joi.object({
  id: Joi.string(), name: Joi.string(), description: Joi.string(), category: Joi.string(),
  parameters_schema: Joi.object().unknown(true).description('JSON Schema of the parameters'), updated_at: Joi.date(),
}).label('TransformPattern');
const applyBody = Joi.object({
  name: transformName.required(),
  input_dataset: Joi.string().max(200).required(),
  column: Joi.string().pattern(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/).required(),
  output_column: Joi.string().pattern(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/),
  parameters: Joi.object().unknown(true).max(50).description('Values replacing the entry\'s defaults'),
  output_dataset: Joi.string().max(200),
  materialization: Joi.string().valid('table', 'incremental'),
  unique_key: Joi.array().items(Joi.string().pattern(/^[A-Za-z0-9_]{1,63}$/)).max(16),
}).label('SqlTransformApply');
const patternBody = Joi.object({ parameters: Joi.object().unknown(true).required() }).label('PatternParameters');
const previewBody = patternBody.keys({ limit: Joi.number().integer().min(1).max(1000).default(50) }).label('PatternPreview');
const tags = ['api', 'sql-transforms'];
const patternTags = ['api', 'transform-patterns'];
const idOf = (request: { params: unknown }) => (request.params as { id: string }).id;

export function libraryRoutes(library: LibraryService, patterns: PatternService): ServerRoute[] {
  const route = (method: 'GET' | 'POST', path: string, description: string, access: typeof member, options: Record<string, unknown>, handler: ServerRoute['handler'], routeTags = tags): ServerRoute =>
    ({ method, path, options: { auth: 'bearer', tags: routeTags, description, plugins: { platform: access }, ...options }, handler });
  const params = { params: Joi.object({ id: catalogId.required() }) };
  return [
    route('GET', '/api/v1/sql-transforms', 'The SQL transform library', member, { validate: { query: categoryQuery }, response: { schema: Joi.object({ items: Joi.array().items(libraryEntry) }).label('SqlTransformList') } },
      (request) => library.list((request.query as { category?: string }).category)),
    route('GET', '/api/v1/sql-transforms/categories', 'Categories of the SQL transform library', member, { response: { schema: categories } }, () => library.categories()),
    route('GET', '/api/v1/sql-transforms/for-type/{sql_type}', 'Library entries that apply to a column type (text, bigint, numeric, double, boolean, timestamptz, date, uuid, jsonb)', member,
      { validate: { params: Joi.object({ sql_type: Joi.string().valid('text', 'bigint', 'numeric', 'double', 'boolean', 'timestamptz', 'date', 'uuid', 'jsonb').required() }) } },
      (request) => library.forType((request.params as { sql_type: string }).sql_type)),
    route('GET', '/api/v1/sql-transforms/{id}', 'A SQL library entry', member, { validate: params, response: { schema: libraryEntry } }, (request) => library.get(idOf(request))),
    route('POST', '/api/v1/sql-transforms/{id}/apply', 'Instantiate the entry over a column of a dataset into a tenant transform', editor,
      { validate: { ...params, payload: applyBody }, response: { schema: transform } },
      async (request, h) => h.response(await library.apply(tenantOf(request), idOf(request), request.payload as ApplyInput, principalOf(request).sub)).code(201)),
    route('POST', '/api/v1/sql-transforms/sync', 'Reload the built-in library (idempotent)', editor, { response: { schema: syncResult } }, () => library.sync()),

    route('GET', '/api/v1/transform-patterns', 'Transform patterns', member, { validate: { query: categoryQuery }, response: { schema: Joi.object({ items: Joi.array().items(pattern) }).label('TransformPatternList') } },
      (request) => patterns.list((request.query as { category?: string }).category), patternTags),
    route('GET', '/api/v1/transform-patterns/categories', 'Categories of transform patterns', member, { response: { schema: categories } }, () => patterns.categories(), patternTags),
    route('GET', '/api/v1/transform-patterns/{id}', 'A transform pattern with its parameters\' JSON Schema', member, { validate: params, response: { schema: pattern } }, (request) => patterns.get(idOf(request)), patternTags),
    route('POST', '/api/v1/transform-patterns/{id}/validate', 'Check parameters, compile the SQL and analyze it (valid, errors, sql)', editor, { validate: { ...params, payload: patternBody }, notes: TENANT_SQL_NOTES },
      (request) => patterns.validate(tenantOf(request), idOf(request), (request.payload as { parameters: Record<string, unknown> }).parameters), patternTags),
    route('POST', '/api/v1/transform-patterns/{id}/preview', 'Run the pattern on a sample of its inputs (read-only: nothing is stored)', editor, { validate: { ...params, payload: previewBody }, notes: TENANT_SQL_NOTES },
      (request) => {
        const body = request.payload as { parameters: Record<string, unknown>; limit: number };
        return patterns.preview(tenantOf(request), idOf(request), body.parameters, body.limit);
      }, patternTags),
    route('POST', '/api/v1/transform-patterns/sync', 'Reload the built-in patterns (idempotent)', editor, { response: { schema: syncResult } }, () => patterns.sync(), patternTags),
  ];
}
