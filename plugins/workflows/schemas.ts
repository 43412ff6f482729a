// joi schemas of the workflows routes (and so of the OpenAPI document). Step
// bodies are checked by the engine's validateDefinition, which names the step
// of every problem; joi only checks the envelope.
import Joi from 'joi';

const STATUSES = ['running', 'waiting', 'completed', 'failed', 'cancelled'];

export const workflowName = Joi.string()
  .pattern(/^[a-z0-9][a-z0-9_-]{0,127}$/)
  .messages({ 'string.pattern.base': '{{#label}} must be lowercase letters, digits, hyphens or underscores (up to 128)' });

const steps = Joi.array()
  .items(Joi.object().unknown(true).label('WorkflowStep'))
  .min(1)
  .max(500)
  .description(
    'Steps, run in order unless a step names the next: ACTION {id, type, handler, arguments?, output_key?, next? | end?}, ' +
      'CONDITION {id, type, condition {field, operator, value}, then_step?, else_step?}, ' +
      'WAIT {id, type, handler: "temporal:wait_for_event", event_type?, event_filter?, timeout_seconds? (60), output_key?, next? | end?}, ' +
      'APPROVAL {id, type, title, description?, payload?, approvers {roles?, users?}, quorum? (1), timeout_seconds? (7 days), output_key?, next? | end?} ' +
      '(needs the approvals plugin; its output is {case_id, status, decisions, timed_out}). ' +
      '`next` names the step after this one; `end: true` completes the workflow after it (how a CONDITION branch ends). ' +
      'A definition whose then_step branch runs on into its else_step target (or the reverse) by list order is refused.',
  );

export const createDefinition = Joi.object({
  name: workflowName.required(),
  description: Joi.string().allow('').max(2000),
  steps: steps.required(),
}).label('CreateWorkflow');

export const updateDefinition = Joi.object({
  name: workflowName.description('Optional; must equal the path (workflows are not renamed)'),
  description: Joi.string().allow('').max(2000),
  steps,
})
  .or('description', 'steps')
  .label('UpdateWorkflow');

export const definition = Joi.object({
  name: Joi.string(),
  description: Joi.string().allow(''),
  steps: Joi.array().items(Joi.object().unknown(true)),
  version: Joi.number().integer(),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).label('Workflow');

export const nameParam = Joi.object({ name: workflowName.required() });

export const paging = Joi.object({
  skip: Joi.number().integer().min(0).default(0),
  limit: Joi.number().integer().min(1).max(500).default(50),
});

export const listOf = (item: Joi.Schema, label: string) =>
  Joi.object({ items: Joi.array().items(item), total: Joi.number().integer(), skip: Joi.number(), limit: Joi.number() }).label(label);

export const executeBody = Joi.object({
  inputs: Joi.object().unknown(true).default({}).description('Available to steps as {{inputs.*}}'),
}).allow(null).label('ExecuteWorkflow');

export const started = Joi.object({
  execution_id: Joi.string().guid(),
  workflow_name: Joi.string(),
  status: Joi.string().valid(...STATUSES),
}).label('StartedExecution');

export const executionQuery = paging.keys({
  status: Joi.string().valid(...STATUSES),
  workflow: workflowName,
});

export const executionId = Joi.object({ id: Joi.string().guid().required() });
export const workflowId = Joi.object({ workflow_id: Joi.string().guid().required().description('The execution id') });

const origin = Joi.object({ type: Joi.string(), id: Joi.string() }).unknown(true).label('ExecutionOrigin');

export const executionSummary = Joi.object({
  execution_id: Joi.string().guid(),
  workflow_name: Joi.string(),
  workflow_version: Joi.number().integer(),
  status: Joi.string().valid(...STATUSES),
  error: Joi.string().allow(null),
  origin,
  created_at: Joi.date(),
  updated_at: Joi.date(),
  finished_at: Joi.date().allow(null),
}).label('ExecutionSummary');

const stepRecord = Joi.object({
  step_id: Joi.string(),
  type: Joi.string().valid('ACTION', 'CONDITION', 'WAIT', 'APPROVAL'),
  status: Joi.string().description('running, waiting, completed, failed, then, else, signal, timeout, cancelled'),
  started_at: Joi.date(),
  finished_at: Joi.date().allow(null),
  duration_ms: Joi.number().integer().allow(null),
  error: Joi.string().allow(null),
}).label('ExecutionStep');

export const execution = executionSummary.keys({
  current_step: Joi.string().allow(null),
  context: Joi.object().unknown(true).description('inputs and every output_key written so far'),
  pending_events: Joi.array().items(Joi.string()),
  wait: Joi.object({ step_id: Joi.string(), event_type: Joi.string().allow(null), deadline: Joi.date() }).allow(null),
  buffered_signals: Joi.number().integer().description('Signals received and not yet consumed by a wait'),
  steps: Joi.array().items(stepRecord),
}).label('Execution');

export const pendingEvents = Joi.object({
  workflow_id: Joi.string().guid(),
  pending_events: Joi.array().items(Joi.string()).description('Event types the execution waits for; empty when not waiting'),
}).label('PendingEvents');
