// joi schemas of the pipeline routes (and so of the OpenAPI document); the
// step schema also checks steps given to validateDag by other plugins.
import Joi from 'joi';

export const pipelineName = Joi.string().pattern(/^[A-Za-z0-9_]{1,63}$/).description('[A-Za-z0-9_], 1-63 characters; unique in the tenant');
const stepId = Joi.string().pattern(/^[A-Za-z0-9_-]{1,63}$/);
const tableName = Joi.string().pattern(/^[A-Za-z0-9_]{1,63}$/);
const datasetOrStep = Joi.string().max(300).pattern(/^[A-Za-z0-9_.-]+$/);
const jsonObject = Joi.object().unknown(true);
const cron = Joi.string().max(200).description('5-field cron expression');
const timezone = Joi.string().max(64).description('IANA time zone of the cron expression (UTC by default)');

export const step = Joi.object({
  id: stepId.required().description('Unique in the pipeline; other steps name it in their inputs'),
  name: Joi.string().max(200),
  transform_id: Joi.string().guid().description('A transform of the tenant: its SQL, parameters and output dataset'),
  transform_name: Joi.string().max(200).pattern(/^[A-Za-z0-9_]+$/).description('A transform named instead of by id'),
  sql: Joi.string().max(100_000).description('Inline SQL (a SELECT over datasets) instead of a transform'),
  output: tableName.description('With inline SQL: the table of its output dataset derived.<tenant>.<output>'),
  parameters: jsonObject,
  inputs: Joi.array().items(datasetOrStep).max(100).default([]).description('Dataset ids or ids of steps of this pipeline'),
  materialization: Joi.string().valid('table', 'incremental').description('table (replace) or incremental (upsert by unique_key); default: the transform\'s, else table'),
  unique_key: Joi.array().items(Joi.string().max(63)).max(20).description('Key columns of an incremental materialization'),
}).xor('transform_id', 'transform_name', 'sql').with('sql', 'output').label('PipelineStep');

export const steps = Joi.array().items(step).max(200);

const schedule = Joi.object({ cron: cron.required(), timezone: timezone.default('UTC') }).allow(null).label('PipelineSchedule');

export const pipelineCreate = Joi.object({
  name: pipelineName.required(),
  description: Joi.string().max(2000).allow('').default(''),
  steps: steps.default([]),
  schedule,
  sensor: Joi.boolean().default(false).description('Run when an input dataset gets a new snapshot'),
}).label('PipelineCreate');

export const pipelinePut = Joi.object({
  name: pipelineName,
  description: Joi.string().max(2000).allow(''),
  steps,
  schedule,
  sensor: Joi.boolean(),
}).min(1).label('PipelineUpdate');

export const stepPatch = Joi.object({
  name: Joi.string().max(200),
  transform_id: Joi.string().guid().allow(null),
  transform_name: Joi.string().max(200).pattern(/^[A-Za-z0-9_]+$/).allow(null),
  sql: Joi.string().max(100_000).allow(null),
  output: tableName.allow(null),
  parameters: jsonObject,
  inputs: Joi.array().items(datasetOrStep).max(100),
  materialization: Joi.string().valid('table', 'incremental'),
  unique_key: Joi.array().items(Joi.string().max(63)).max(20).allow(null),
}).min(1).label('PipelineStepPatch');

export const pipelineParams = Joi.object({ pipeline_id: Joi.string().guid().required() });
export const stepParams = Joi.object({ pipeline_id: Joi.string().guid().required(), step_id: stepId.required() });
export const sandboxParams = Joi.object({ pipeline_id: Joi.string().guid().required(), workflow_id: Joi.string().guid().required() });
export const pageQuery = Joi.object({
  limit: Joi.number().integer().min(1).max(500).default(100),
  offset: Joi.number().integer().min(0).max(1_000_000).default(0),
});

export const validateDagBody = Joi.object({
  steps: steps.description('Steps to check (nothing stored)'),
  pipeline_id: Joi.string().guid().description('Or: check a stored pipeline\'s current definition (a valid one becomes `validated`)'),
}).xor('steps', 'pipeline_id').label('ValidateDagRequest');

export const versionBody = Joi.object({ note: Joi.string().max(500).allow('').default('') }).allow(null).label('PipelineVersionRequest');
export const sandboxBody = Joi.object({
  version: Joi.number().integer().min(1).description('The version to run; default: the current definition (versioned first when it changed)'),
}).allow(null).label('SandboxRequest');
export const activateBody = Joi.object({
  version: Joi.number().integer().min(1).description('Default: the current definition (versioned when it changed)'),
  force: Joi.boolean().default(false).description('Activate without a succeeded sandbox run of that version'),
}).allow(null).label('ActivateRequest');

const dagError = Joi.object({ code: Joi.string(), message: Joi.string(), steps: Joi.array().items(Joi.string()) }).label('DagError');
export const dagValidation = Joi.object({ valid: Joi.boolean(), errors: Joi.array().items(dagError), order: Joi.array().items(Joi.string()) }).label('DagValidation');

const storedStep = step.keys({ inputs: Joi.array().items(Joi.string()) }).label('PipelineStepStored');
export const pipeline = Joi.object({
  id: Joi.string(), name: Joi.string(), description: Joi.string().allow(''), steps: Joi.array().items(storedStep),
  schedule: Joi.object({ cron: Joi.string(), timezone: Joi.string() }).allow(null).label('PipelineScheduleOut'),
  sensor: Joi.boolean(), state: Joi.string().valid('draft', 'validated', 'active', 'paused'),
  active_version: Joi.number().integer().allow(null), latest_version: Joi.number().integer().allow(null),
  activated_at: Joi.date().allow(null), next_run_at: Joi.date().allow(null),
  created_by: Joi.string().allow(null), created_at: Joi.date(), updated_at: Joi.date(),
  validation: dagValidation.optional(),
}).label('Pipeline');
export const pipelineList = Joi.object({ items: Joi.array().items(pipeline), total: Joi.number().integer(), limit: Joi.number().integer(), offset: Joi.number().integer() }).label('PipelineList');

export const version = Joi.object({
  pipeline_id: Joi.string(), version: Joi.number().integer(), steps: Joi.array().items(storedStep), fingerprint: Joi.string(),
  note: Joi.string().allow(''), created_by: Joi.string().allow(null), created_at: Joi.date(),
}).label('PipelineVersion');
export const versionList = Joi.array().items(version).label('PipelineVersionList');

export const stepResult = Joi.object({
  step_id: Joi.string(), status: Joi.string(), depends_on: Joi.array().items(Joi.string()), output_dataset: Joi.string().allow(null),
  snapshot_id_exact: Joi.string().allow(null), rows: Joi.number().integer().allow(null),
  schema: Joi.array().items(Joi.object({ name: Joi.string(), type: Joi.string() }).label('StepColumn')).allow(null),
  sample_rows: Joi.array().items(jsonObject).allow(null), error: Joi.string().allow(null),
  started_at: Joi.date().allow(null), finished_at: Joi.date().allow(null), duration_ms: Joi.number().integer().allow(null), sql_ms: Joi.number().integer().allow(null),
}).label('PipelineStepResult');

export const run = Joi.object({
  id: Joi.string(), workflow_id: Joi.string(), pipeline_id: Joi.string(), version: Joi.number().integer(), kind: Joi.string(), trigger: Joi.string(),
  trigger_detail: jsonObject, status: Joi.string(), error: Joi.string().allow(null), created_by: Joi.string().allow(null),
  started_at: Joi.date(), finished_at: Joi.date().allow(null), steps: Joi.array().items(stepResult),
}).label('PipelineRun');
export const runList = Joi.object({ items: Joi.array().items(run), total: Joi.number().integer(), limit: Joi.number().integer(), offset: Joi.number().integer() }).label('PipelineRunList');
export const workflowStarted = Joi.object({ workflow_id: Joi.string(), pipeline_id: Joi.string(), version: Joi.number().integer(), status: Joi.string() }).label('SandboxStarted');
export const runKind = Joi.string().valid('sandbox', 'production').description('Only runs of this kind');
const availableTransform = Joi.object({
  id: Joi.string(), name: Joi.string(), output_dataset: Joi.string(), inputs: Joi.array().items(Joi.string()),
  materialization: Joi.string(), unique_key: Joi.array().items(Joi.string()), status: Joi.string(),
}).label('AvailableTransform');
export const availableTransformsQuery = Joi.object({
  limit: Joi.number().integer().min(1).max(500).default(100),
  after: Joi.string().guid(),
});
export const availableTransforms = Joi.object({
  items: Joi.array().items(availableTransform), total: Joi.number().integer(), limit: Joi.number().integer(), next: Joi.string().guid().allow(null),
}).label('AvailableTransformList');

export const workflowParams = Joi.object({ workflow_id: Joi.string().guid().required() });
const column = Joi.object({ name: Joi.string().max(63).required(), type: Joi.string().max(63).required() }).label('SchemaColumn');
const datasetId = Joi.string().max(300).pattern(/^[A-Za-z0-9_]+\.[A-Za-z0-9_]+\.[A-Za-z0-9_]+$/);
export const schemaMatchBody = Joi.object({
  source_dataset: datasetId.required().description('The dataset whose columns are matched'),
  target_dataset: datasetId.description('Match to this dataset\'s columns'),
  target_schema: Joi.array().items(column).min(1).max(500).description('Or to these columns'),
}).xor('target_dataset', 'target_schema').label('SchemaMatchRequest');
export const transformWorkflowBody = Joi.object({ transform_id: Joi.string().guid().required() }).label('TransformWorkflowRequest');
export const pipelineWorkflowBody = Joi.object({ pipeline_id: Joi.string().guid().required() }).label('PipelineWorkflowRequest');
export const waitBody = Joi.object({ timeout_seconds: Joi.number().min(0).max(600).default(30).description('Longest wait (bounded by PIPELINES_WAIT_MAX_SECONDS)') }).allow(null).label('WorkflowWaitRequest');
export const workflow = Joi.object({
  workflow_id: Joi.string(), workflow_type: Joi.string(), status: Joi.string(), is_terminal: Joi.boolean(),
  started_at: Joi.date(), finished_at: Joi.date().allow(null), error: Joi.string().allow(null), result: jsonObject, timed_out: Joi.boolean(),
}).label('Workflow');
