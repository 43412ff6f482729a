// joi schemas of the /ai routes (and so of the OpenAPI document).
import { boundedJson, Joi } from 'agent-platform/sdk';

const datasetId = Joi.string().min(3).max(300).description('A dataset id <namespace>.<layer>.<table> the tenant may read');
const sqlText = Joi.string().min(1).max(200_000);
const prompt = Joi.string().min(1).max(8000);
const jsonObject = Joi.object().unknown(true);
const sqlError = Joi.object({ code: Joi.string(), message: Joi.string(), line: Joi.number(), column: Joi.number() }).label('AiSqlError');
const finding = Joi.object({ rule: Joi.string(), severity: Joi.string(), message: Joi.string(), line: Joi.number(), column: Joi.number() }).label('AiSqlFinding');
const analysis = Joi.object({
  ok: Joi.boolean(), errors: Joi.array().items(sqlError), inputs: Joi.array().items(Joi.string()),
  columns: Joi.array().items(Joi.object({ name: Joi.string(), type: Joi.string() }).label('AiColumn')),
}).label('AiSqlAnalysis');
const source = Joi.string().valid('rules', 'model').description('rules: deterministic; model: the configured model, validated');

export const targetField = Joi.object({ name: Joi.string().min(1).max(200).required(), type: Joi.string().max(100), description: Joi.string().max(2000) }).label('AiTargetField');

export const targetSchemaRequest = Joi.object({
  dataset_id: datasetId.required(),
  instructions: Joi.string().max(4000).description('Hints for the model (ignored by the rules)'),
}).label('AiSuggestTargetSchema');

export const targetSchemaResult = Joi.object({
  dataset_id: Joi.string(), source,
  fields: Joi.array().items(Joi.object({
    name: Joi.string(), type: Joi.string(), format: Joi.string(), source_column: Joi.string(), required: Joi.boolean(), reason: Joi.string(),
  }).label('AiSuggestedField')),
  primary_key: Joi.array().items(Joi.string()),
}).label('AiTargetSchema');

export const mappingsRequest = Joi.object({
  source_dataset: datasetId.required(),
  target_dataset: datasetId,
  target_fields: Joi.array().items(targetField).min(1).max(500),
}).xor('target_dataset', 'target_fields').label('AiSuggestFieldMappings');

export const mappingsResult = Joi.object({
  source,
  mappings: Joi.array().items(Joi.object({
    target: Joi.string(), source: Joi.string(), confidence: Joi.number(), reasons: Joi.array().items(Joi.string()), cast: Joi.string(),
  }).label('AiFieldMapping')),
  unmapped_targets: Joi.array().items(Joi.string()),
  unmapped_sources: Joi.array().items(Joi.string()),
}).label('AiFieldMappings');

export const patternParamsRequest = Joi.object({
  dataset_id: datasetId.required(),
  pattern_kind: Joi.string().valid('transform', 'source').default('transform'),
  pattern_id: Joi.string().pattern(/^[A-Za-z0-9_-]{1,100}$/).description('A transform pattern (GET /transform-patterns/{id}) or a source pattern (GET /patterns/{id})'),
  params_schema: boundedJson('AiParamsSchema').description('The parameters\' JSON Schema, instead of a pattern id'),
}).xor('pattern_id', 'params_schema').label('AiSuggestPatternParams');

export const patternParamsResult = Joi.object({
  dataset_id: Joi.string(), source, params: jsonObject, reasons: jsonObject,
  unfilled: Joi.array().items(Joi.string()), valid: Joi.boolean(), problems: Joi.array().items(Joi.string()),
}).label('AiPatternParams');

export const reviewRequest = Joi.object({ sql: sqlText.required() }).label('AiReviewSql');
export const reviewResult = Joi.object({ ok: Joi.boolean(), analysis, findings: Joi.array().items(finding) }).label('AiSqlReview');

export const generateRequest = Joi.object({
  prompt: prompt.required().description('What the transform should produce'),
  inputs: Joi.array().items(datasetId).min(1).max(20).required().description('The datasets it may read'),
  name: Joi.string().pattern(/^[A-Za-z0-9_-]{1,100}$/),
}).label('AiGenerateTransform');

export const generateResult = Joi.object({
  source, draft: Joi.object({ name: Joi.string(), description: Joi.string().allow(''), sql: Joi.string() }).label('AiTransformDraft'), analysis,
}).label('AiGeneratedTransform');

export const fixRequest = Joi.object({
  sql: sqlText.required(),
  error: Joi.string().min(1).max(20_000).required().description('The CI failure (message, log excerpt)'),
  inputs: Joi.array().items(datasetId).max(20).default([]),
}).label('AiFixCiFailure');

export const fixResult = Joi.object({ source, sql: Joi.string(), explanation: Joi.string().allow(''), analysis }).label('AiFixedSql');

export const publishRequest = Joi.object({
  name: Joi.string().pattern(/^[A-Za-z0-9_-]{1,100}$/).required(),
  description: Joi.string().max(2000).allow(''),
  sql: sqlText.required(),
  parameters: jsonObject.max(100),
  output_dataset: Joi.string().max(200),
  materialization: Joi.string().valid('table', 'incremental'),
  unique_key: Joi.array().items(Joi.string().pattern(/^[A-Za-z0-9_]{1,63}$/)).max(16),
}).label('AiPublishTransform');

export const publishResult = Joi.object({ transform: jsonObject, findings: Joi.array().items(finding) }).label('AiPublishedTransform');

export const composeRequest = Joi.object({
  prompt: prompt.required().description('What the pipeline should do'),
  inputs: Joi.array().items(datasetId).min(1).max(20).required().description('The datasets it may read'),
  name: Joi.string().pattern(/^[A-Za-z0-9_]{1,63}$/),
}).label('AiComposePipeline');

export const executionParams = Joi.object({ execution_id: Joi.string().guid().required() });

export const composition = Joi.object({
  execution_id: Joi.string(),
  status: Joi.string().valid('queued', 'running', 'succeeded', 'failed'),
  result: jsonObject.allow(null).description('succeeded: {pipeline: {name, description, steps}, validation: {valid, order}}'),
  error: Joi.object({ code: Joi.string(), message: Joi.string() }).allow(null).label('AiCompositionError'),
  created_at: Joi.date(),
  finished_at: Joi.date().allow(null),
}).label('AiComposition');
