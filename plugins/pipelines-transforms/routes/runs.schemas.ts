// joi schemas of transform runs, generic runs and artifacts.
import Joi from 'joi';

const jsonObject = Joi.object().unknown(true);
const runId = Joi.string().pattern(/^\d{1,19}$/);
const column = Joi.object({ name: Joi.string(), type: Joi.string() }).label('RunColumn');
const runError = Joi.object({ code: Joi.string(), message: Joi.string() }).label('RunError');

export const transformRunParams = Joi.object({ run_id: runId.required() });
export const transformRunNestedParams = Joi.object({ transform_id: Joi.string().guid().required(), run_id: runId.required() });
export const transformRunListQuery = Joi.object({
  limit: Joi.number().integer().min(1).max(500).default(100),
  offset: Joi.number().integer().min(0).max(1_000_000).default(0),
  status: Joi.string().valid('queued', 'running', 'succeeded', 'failed', 'cancelled'),
  transform_id: Joi.string().guid(),
});

export const transformRun = Joi.object({
  id: Joi.string().description('Decimal string (canonical)'),
  transform_id: Joi.string(),
  orchestrator_run_id: Joi.string().allow(null),
  pipeline_run_id: Joi.string().allow(null),
  trigger: Joi.string().valid('manual', 'schedule', 'pipeline', 'execute', 'materialize'),
  status: Joi.string().valid('queued', 'running', 'succeeded', 'failed', 'cancelled'),
  parameters: jsonObject,
  output_dataset: Joi.string(),
  rows: Joi.number().allow(null),
  snapshot_id: Joi.any().description('Deprecated number; compare snapshot_id_exact'),
  snapshot_id_exact: Joi.string().allow(null),
  columns: Joi.array().items(column).allow(null),
  error: runError.allow(null),
  cancel_requested: Joi.boolean(),
  adopted: Joi.boolean().description('/execute: an existing row of this orchestrator run and transform was run again'),
  created_by: Joi.string().allow(null),
  created_at: Joi.date(),
  started_at: Joi.date().allow(null),
  finished_at: Joi.date().allow(null),
  duration_ms: Joi.number().allow(null),
}).label('TransformRun');

export const transformRunList = Joi.object({ items: Joi.array().items(transformRun), limit: Joi.number(), offset: Joi.number() }).label('TransformRunList');
export const runLogs = Joi.object({
  run_id: Joi.string(),
  items: Joi.array().items(Joi.object({ at: Joi.string(), level: Joi.string(), message: Joi.string() }).label('RunLogLine')),
}).label('TransformRunLogs');
