// joi schemas of the transform routes (and so of the OpenAPI document); the
// same create/patch schemas validate the api's createTransform/patchTransform.
import Joi from 'joi';

const jsonObject = Joi.object().unknown(true);
const column = Joi.object({ name: Joi.string(), type: Joi.string() }).label('OutputColumn');
const sqlError = Joi.object({ code: Joi.string(), message: Joi.string(), line: Joi.number(), column: Joi.number() }).label('SqlError');
const identifier = Joi.string().pattern(/^[A-Za-z0-9_]{1,63}$/);

export const transformName = Joi.string().pattern(/^[A-Za-z0-9_-]{1,100}$/).description('[A-Za-z0-9_-], 1-100 characters; unique in the tenant');
export const sqlText = Joi.string().min(1).max(200_000).description('One SELECT (or WITH … SELECT) over dataset ids; parameters as $1, $2 … (the Nth declared parameter)');
export const parameters = jsonObject.max(100)
  .description('Named parameters in order ($N is the Nth): a JSON Schema declaration ({"type": "number", "default": 10}) or a bare value');

export const transformCreate = Joi.object({
  name: transformName.required(),
  description: Joi.string().max(2000).allow(''),
  sql: sqlText.required(),
  parameters,
  output_dataset: Joi.string().max(200).description('derived.<tenant>.<table>, or just the table; default: derived.<tenant>.<name>'),
  materialization: Joi.string().valid('table', 'incremental').default('table').description('table: replace; incremental: upsert by unique_key'),
  unique_key: Joi.array().items(identifier).max(16),
  status: Joi.string().valid('active', 'archived'),
}).label('TransformCreate');

export const transformPatch = Joi.object({
  name: transformName,
  description: Joi.string().max(2000).allow(''),
  sql: sqlText,
  parameters,
  output_dataset: Joi.string().max(200),
  materialization: Joi.string().valid('table', 'incremental'),
  unique_key: Joi.array().items(identifier).max(16),
  status: Joi.string().valid('active', 'archived').description('archived: never runs, keeps its history (un-archive by setting active)'),
}).min(1).label('TransformPatch');

export const transformParams = Joi.object({ transform_id: Joi.string().guid().required() });
export const pageQuery = Joi.object({
  limit: Joi.number().integer().min(1).max(500).default(100),
  offset: Joi.number().integer().min(0).max(1_000_000).default(0),
});
export const transformListQuery = pageQuery.keys({ status: Joi.string().valid('active', 'archived') });
export const deleteQuery = Joi.object({ archive: Joi.boolean().default(false).description('true: archive (keeps runs and artifacts) instead of deleting') });

export const transform = Joi.object({
  id: Joi.string(),
  name: Joi.string(),
  description: Joi.string().allow(''),
  sql: Joi.string(),
  parameters: jsonObject,
  output_dataset: Joi.string(),
  materialization: Joi.string().valid('table', 'incremental'),
  unique_key: Joi.array().items(Joi.string()),
  status: Joi.string().valid('active', 'archived'),
  inputs: Joi.array().items(Joi.string()).description('Lineage: the datasets it reads'),
  columns: Joi.array().items(column).description('Inferred output schema'),
  analysis_errors: Joi.array().items(sqlError).description('What the last analysis found (e.g. an input dataset that does not exist yet)'),
  hydrated_at: Joi.date().allow(null),
  origin: jsonObject.allow(null),
  created_by: Joi.string().allow(null),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).label('Transform');

export const transformList = Joi.object({
  items: Joi.array().items(transform), total: Joi.number().integer(), limit: Joi.number().integer(), offset: Joi.number().integer(),
}).label('TransformList');

export const runBody = Joi.object({
  parameters: jsonObject.max(100).description('Values by name, replacing the declared defaults'),
  wait: Joi.boolean().default(true).description('true: answer when the run ends; false: 202 with the queued run'),
}).label('TransformRunRequest');

export const executeBody = runBody.keys({
  orchestrator_run_id: Joi.string().pattern(/^[A-Za-z0-9_.:-]{1,200}$/).required()
    .description('The orchestrator\'s run id; grouped jobs share one across transforms'),
  pipeline_run_id: Joi.string().max(200),
}).label('TransformExecuteRequest');
