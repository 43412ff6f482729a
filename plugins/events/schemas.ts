// joi schemas shared by the routes (and so the OpenAPI document), the service
// (which validates CLI input with them too) and GraphQL inputs.
import Joi from 'joi';

export const TRIGGER_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const WORKFLOW_NAME = /^[a-z0-9][a-z0-9_-]{0,127}$/;
const MAX_DEDUP_WINDOW = 30 * 86_400;

export const paging = Joi.object({
  skip: Joi.number().integer().min(0).default(0),
  limit: Joi.number().integer().min(1).max(500).default(50),
});

export const listOf = (item: Joi.Schema, label: string) =>
  Joi.object({ items: Joi.array().items(item), total: Joi.number().integer(), skip: Joi.number(), limit: Joi.number() }).label(label);

const jsonObject = Joi.object().unknown(true);
const filter = jsonObject.description('Event filter: dot paths → arrays of conditions (literal, {prefix}, {numeric}, {exists})');

export const scheduleConfig = Joi.object({
  cron: Joi.string().trim().max(200).required().description('5-field cron: minute hour day-of-month month day-of-week'),
  timezone: Joi.string().max(100).default('UTC').description('IANA time zone name'),
  note: Joi.string().allow('').max(500),
  missed_fire_policy: Joi.string().valid('skip', 'catch_up_once').default('skip')
    .description('What a fire time missed while the platform was down does: nothing (skip), or one late fire (catch_up_once)'),
}).label('ScheduleConfig');

export const deadmanConfig = Joi.object({
  watch_event_type: Joi.string().max(200).required(),
  within_seconds: Joi.number().integer().min(60).max(366 * 86_400).required(),
  watch_filter: filter.allow(null),
  after_event_type: Joi.string().max(200).allow(null),
  recurring: Joi.boolean().default(true),
}).label('DeadmanConfig');

const triggerFields = {
  event_type: Joi.string().max(200).description('Exact type or a pattern ending in * (optional for scheduled and deadman triggers)'),
  event_filter: filter.allow(null),
  target_type: Joi.string().valid('workflow').default('workflow'),
  target_name: Joi.string().pattern(WORKFLOW_NAME).message('target_name must be a workflow name'),
  input_mapping: jsonObject.allow(null).description('Values or {{event.*}} templates; absent: the workflow gets {event}'),
  active: Joi.boolean(),
  dedup_key: Joi.string().max(500).allow(null).description('{{template}} resolving to the key'),
  dedup_window_seconds: Joi.number().integer().min(1).max(MAX_DEDUP_WINDOW),
  ignore_own_results: Joi.boolean()
    .description('Reactive: do not fire on workflow.completed/workflow.failed of executions this trigger started (default false)'),
  schedule_config: scheduleConfig.allow(null),
  deadman_config: deadmanConfig.allow(null),
};

export const createTrigger = Joi.object({
  name: Joi.string().max(100).pattern(TRIGGER_NAME).message('name must be lowercase letters and digits, separated by single hyphens').required(),
  ...triggerFields,
  target_name: triggerFields.target_name.required(),
  active: triggerFields.active.default(true),
  dedup_window_seconds: triggerFields.dedup_window_seconds.default(300),
  ignore_own_results: triggerFields.ignore_own_results.default(false),
}).label('CreateTrigger');

/** An update names only the fields it changes (null clears an optional one). */
export const updateTrigger = Joi.object({
  name: Joi.string().max(100).description('Must equal the path name when given: triggers are not renamed'),
  ...triggerFields,
}).min(1).label('UpdateTrigger');

export const triggerName = Joi.object({ name: Joi.string().max(100).pattern(TRIGGER_NAME).required() });

export const triggerQuery = paging.keys({
  active_only: Joi.boolean().default(false),
  event_type: Joi.string().max(200),
});

export const trigger = Joi.object({
  name: Joi.string(),
  kind: Joi.string().valid('reactive', 'scheduled', 'deadman'),
  event_type: Joi.string(),
  event_filter: jsonObject.allow(null),
  target_type: Joi.string(),
  target_name: Joi.string(),
  input_mapping: jsonObject.allow(null),
  active: Joi.boolean(),
  dedup_key: Joi.string().allow(null),
  dedup_window_seconds: Joi.number().integer(),
  ignore_own_results: Joi.boolean(),
  schedule_config: jsonObject.allow(null),
  deadman_config: jsonObject.allow(null),
  next_fire_at: Joi.date().allow(null).description('Scheduled: the occurrence its timer is armed for'),
  deadman_deadline: Joi.date().allow(null).description('Deadman: when the current watch window ends'),
  last_fired_at: Joi.date().allow(null),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).label('Trigger');

export const testRequest = Joi.object({
  event: Joi.object({
    type: Joi.string().max(200).required(),
    data: jsonObject.default({}),
    source: Joi.string().max(500),
    id: Joi.string().max(200),
    time: Joi.date().iso(),
  }).required(),
}).label('TriggerTestRequest');

export const testResult = Joi.object({
  matched: Joi.boolean(),
  type_matched: Joi.boolean(),
  filter_result: Joi.object().pattern(Joi.string(), Joi.object({ matched: Joi.boolean(), value: Joi.any(), reason: Joi.string() })),
  input_mapping_result: jsonObject,
  dedup_key_result: Joi.string().allow(null),
  event: jsonObject,
}).label('TriggerTestResult');

export const backfillRequest = Joi.object({
  since: Joi.date().iso().description('ISO 8601; default: the start of the stream'),
  limit: Joi.number().integer().min(1).max(500).default(100),
}).allow(null).label('BackfillRequest');

export const backfillResult = Joi.object({
  scanned: Joi.number().integer(),
  matched: Joi.number().integer(),
  dispatched: Joi.number().integer(),
  deduplicated: Joi.number().integer(),
  errors: Joi.array().items(Joi.object({ event_id: Joi.string(), seq: Joi.number().integer(), error: Joi.string() })),
  last_event_time: Joi.date().allow(null).description('Time of the last event scanned: pass it as `since` to go on'),
}).label('BackfillResult');

export const cloudEvent = Joi.object({
  specversion: Joi.string(),
  id: Joi.string(),
  type: Joi.string(),
  source: Joi.string(),
  time: Joi.string(),
  tenantid: Joi.string(),
  chaindepth: Joi.number().integer().min(1).description('Extension: events of a chain before this one (workflows started by an event that emitted the next); absent when none'),
  datacontenttype: Joi.string(),
  data: jsonObject,
}).label('CloudEvent');

export const streamEvent = cloudEvent.keys({
  seq: Joi.number().integer().description('The event\'s number: unique in the tenant\'s stream, in emission order, with gaps (not the stream\'s order)'),
  position: Joi.string().description('Its place in the stream\'s order (transaction, then number), as text that sorts in that order'),
  dispatched: Joi.boolean(),
}).label('StreamEvent');

export const emitRequest = Joi.object({
  type: Joi.string().max(200).required(),
  source: Joi.string().max(500).default('/api/admin/triggers/events/emit'),
  data: jsonObject.default({}),
  id: Joi.string().max(200),
  time: Joi.date().iso(),
}).label('EmitEvent');

export const emitResult = Joi.object({
  event: cloudEvent,
  seq: Joi.number().integer().description('The event\'s number'),
  warnings: Joi.array().items(Joi.string()),
}).label('EmittedEvent');

export const recentQuery = Joi.object({
  limit: Joi.number().integer().min(1).max(500).default(50),
  type: Joi.string().max(200).description('Exact type or pattern ending in *'),
});

export const typesQuery = Joi.object({ include_custom: Joi.boolean().default(false) });

export const eventType = Joi.object({
  type: Joi.string(),
  description: Joi.string().allow(''),
  builtin: Joi.boolean().description('Registered by one of the platform\'s own plugins (plugins/); false for a partner plugin\'s types and the tenant\'s custom ones'),
}).label('EventType');

export const customType = Joi.object({
  type: Joi.string(),
  description: Joi.string().allow(''),
  sample_payload: jsonObject.allow(null),
  schema: jsonObject.allow(null),
  created_at: Joi.date(),
  updated_at: Joi.date(),
  warnings: Joi.array().items(Joi.string()),
}).label('CustomEventType');

const customTypeFields = {
  description: Joi.string().allow('').max(2000).default(''),
  sample_payload: jsonObject.allow(null).default(null),
  schema: jsonObject.allow(null).default(null).description('JSON Schema of data; emission only warns when data does not conform'),
};

export const createCustomType = Joi.object({ type: Joi.string().max(200).required(), ...customTypeFields }).label('CreateCustomEventType');
export const updateCustomType = Joi.object(customTypeFields).label('UpdateCustomEventType');
export const customTypeParam = Joi.object({ type: Joi.string().max(200).required() });
