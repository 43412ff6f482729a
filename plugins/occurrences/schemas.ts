// joi schemas of the occurrences routes (and so of the OpenAPI document).
// Free JSON (a Form.io schema, dynamic field values, a service area) is
// bounded in depth so that nothing deeper than the text guard walks reaches
// the database.
import { boundedJson, Joi } from 'agent-platform/sdk';
import { V0_TYPES } from './domain/dynamic-fields.ts';

const json = boundedJson;

export const intId = Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER);
export const idParams = Joi.object({ id: intId.required().description('An integer id') });

export const paging = {
  skip: Joi.number().integer().min(0).max(1_000_000).default(0),
  limit: Joi.number().integer().min(1).max(500).default(50),
};

export const listOf = (item: Joi.Schema, label: string) =>
  Joi.object({ items: Joi.array().items(item), total: Joi.number().integer(), skip: Joi.number(), limit: Joi.number() }).label(label);

// Occurrence types.

const v0Field = Joi.object({
  key: Joi.string().pattern(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/).required(),
  label: Joi.string().trim().min(1).max(200).required(),
  type: Joi.string().valid(...V0_TYPES).required(),
  required: Joi.boolean().default(false),
  options: Joi.array().items(Joi.string().max(200)).max(200),
}).label('LegacyDynamicField');

export const formSchema = Joi.alternatives(
  Joi.object({ version: Joi.string().valid('v1').required(), format: Joi.string().valid('FORMIO').required(), schema: json('FormioSchema').required() }).label('FormSchemaV1'),
  Joi.object({ version: Joi.string().valid('v0').required(), dynamic_fields: Joi.array().items(v0Field).max(200).required() }).label('FormSchemaV0'),
).description('{version: "v1", format: "FORMIO", schema} or legacy {version: "v0", dynamic_fields: [{key, label, type, required, options?}]}');

export const typeBody = Joi.object({
  name: Joi.string().trim().min(1).max(200).required(),
  code: Joi.string().pattern(/^[A-Za-z0-9_.-]{1,64}$/).required(),
  form_schema: formSchema.required(),
  duplicate_policy: Joi.string().valid('allow', 'warn', 'reject').default('warn'),
  duplicate_radius_m: Joi.number().integer().min(1).max(100_000).default(50),
  duplicate_window_days: Joi.number().integer().min(1).max(3650).default(30),
  active: Joi.boolean().default(true),
}).label('OccurrenceTypeInput');

const storedSchema = Joi.object().unknown(true).label('StoredFormSchema');

export const publicType = Joi.object({ id: Joi.number().integer(), name: Joi.string(), code: Joi.string(), form_schema: storedSchema }).label('PublicOccurrenceType');
export const staffType = publicType.keys({
  duplicate_policy: Joi.string(), duplicate_radius_m: Joi.number().integer(), duplicate_window_days: Joi.number().integer(), active: Joi.boolean(),
  created_at: Joi.date(), updated_at: Joi.date(),
}).label('OccurrenceType');
export const publicTypeList = Joi.object({ items: Joi.array().items(publicType) }).label('PublicOccurrenceTypeList');
export const staffTypeList = Joi.object({ items: Joi.array().items(staffType) }).label('OccurrenceTypeList');

// Submissions and the duplicate check.

const text = (max: number) => Joi.string().max(max);
/** File tokens one report may name. */
const MAX_ATTACHMENTS = 10;
export const submission = Joi.object({
  title: Joi.string().trim().min(1).max(300).required(),
  description: text(10_000).allow('').default(''),
  occurrence_type: intId.required(),
  latitude: Joi.number().min(-90).max(90).required(),
  longitude: Joi.number().min(-180).max(180).required(),
  address: text(500).allow('', null),
  reporter_name: text(200).allow('', null),
  reporter_email: Joi.string().email({ tlds: false }).max(320).allow('', null),
  reporter_phone: Joi.string().pattern(/^[0-9+()\-. ]{3,40}$/).allow('', null),
  dynamic_fields: json('DynamicFields').default({}),
  attachments: Joi.array().items(Joi.string().max(100)).max(MAX_ATTACHMENTS).default([])
    .description(`File tokens of uploads (POST /api/forms/files, multipart \`file\`), at most ${MAX_ATTACHMENTS}; each is consumed with the occurrence`),
}).label('OccurrenceSubmission');

export const similarReport = Joi.object({
  id: Joi.number().integer(), reference: Joi.string(), title: Joi.string(), state: Joi.string(),
  distance_m: Joi.number(), text_similarity: Joi.number(), created_at: Joi.date(),
}).label('SimilarReport');

export const duplicateCheck = Joi.object({
  has_duplicates: Joi.boolean(),
  suggested_action: Joi.string().valid('create', 'review', 'link'),
  similar_reports: Joi.array().items(similarReport),
}).label('DuplicateCheck');

export const submitted = Joi.object({
  id: Joi.number().integer(), reference: Joi.string(), state: Joi.string(), created_at: Joi.date(),
  possible_duplicates: Joi.array().items(similarReport).description('Policy warn: the similar reports found'),
}).label('OccurrenceSubmitted');

// Occurrences as staff see them.

const publicFields = {
  id: Joi.number().integer(), reference: Joi.string(), occurrence_type: Joi.number().integer(), title: Joi.string(), description: Joi.string().allow(''),
  latitude: Joi.number(), longitude: Joi.number(), address: Joi.string().allow('', null), state: Joi.string(),
  duplicate_of: Joi.number().integer().allow(null), created_at: Joi.date(), updated_at: Joi.date(),
};
export const staffOccurrence = Joi.object({
  ...publicFields,
  reporter_name: Joi.string().allow('', null), reporter_email: Joi.string().allow('', null), reporter_phone: Joi.string().allow('', null),
  dynamic_fields: Joi.object().unknown(true), attachments: Joi.array().items(Joi.object().unknown(true)),
  source: Joi.string(), submitted_by: Joi.string().allow(null), support_count: Joi.number().integer(),
}).label('Occurrence');
export const transitioned = staffOccurrence.keys({
  messages_sent: Joi.array().items(Joi.number().integer())
    .description('Ids of the messages the send_on_enter templates of the new state recorded (on the detail\'s messages)'),
}).label('TransitionedOccurrence');

const historyEntry = Joi.object({
  id: Joi.number().integer(), from_state: Joi.string().allow(null), to_state: Joi.string(), comment: Joi.string().allow(''),
  actor: Joi.string().allow(null), created_at: Joi.date(),
}).label('OccurrenceHistoryEntry');
export const message = Joi.object({
  id: Joi.number().integer(), template_id: Joi.number().integer().allow(null), channel: Joi.string(), subject: Joi.string().allow(''),
  body: Joi.string().allow(''), created_by: Joi.string().allow(null), created_at: Joi.date(),
}).label('OccurrenceMessage');
const linked = Joi.object({ id: Joi.number().integer(), reference: Joi.string(), title: Joi.string(), state: Joi.string(), created_at: Joi.date() }).label('LinkedOccurrence');

export const occurrenceDetail = staffOccurrence.keys({
  type: Joi.object({ id: Joi.number().integer(), name: Joi.string(), code: Joi.string() }).allow(null),
  history: Joi.array().items(historyEntry), messages: Joi.array().items(message), duplicates: Joi.array().items(linked),
}).label('OccurrenceDetail');

const SORTS = ['created_at', '-created_at', 'reference', '-reference', 'state', '-state', 'title', '-title'];
const coords = /^-?\d{1,3}(\.\d{1,12})?,-?\d{1,3}(\.\d{1,12})?$/;
export const listQuery = Joi.object({
  state: Joi.string().pattern(/^[a-z][a-z0-9_]{0,63}$/),
  type: intId,
  reference: Joi.string().pattern(/^[A-Za-z0-9-]{1,40}$/),
  text: Joi.string().trim().min(1).max(200).pattern(/^[^\u0000]*$/),
  created_from: Joi.date().iso(),
  created_to: Joi.date().iso(),
  bbox: Joi.string().pattern(/^-?\d{1,3}(\.\d{1,12})?(,-?\d{1,3}(\.\d{1,12})?){3}$/).description('min_lon,min_lat,max_lon,max_lat'),
  near: Joi.string().pattern(coords).description('lat,lon: with radius'),
  radius: Joi.number().integer().min(1).max(100_000).default(500).description('Metres around `near`'),
  sort: Joi.string().valid(...SORTS).default('-created_at'),
  ...paging,
}).label('OccurrenceListQuery');

// States.

const stateKey = Joi.string().pattern(/^[a-z][a-z0-9_]{0,63}$/);
const state = Joi.object({
  key: stateKey.required(), label: Joi.string().trim().min(1).max(200).required(),
  is_initial: Joi.boolean().default(false), is_final: Joi.boolean().default(false),
}).label('OccurrenceStateInput');
const transition = Joi.object({ from_state: stateKey.required(), to_state: stateKey.required() }).label('OccurrenceTransitionEdge');
export const graphBody = Joi.object({ states: Joi.array().items(state).min(1).max(100).required(), transitions: Joi.array().items(transition).max(2000).required() }).label('OccurrenceStateGraphInput');
export const graph = Joi.object({
  states: Joi.array().items(Joi.object({ key: Joi.string(), label: Joi.string(), is_initial: Joi.boolean(), is_final: Joi.boolean(), position: Joi.number().integer() }).label('OccurrenceState')),
  transitions: Joi.array().items(transition),
}).label('OccurrenceStateGraph');
export const occurrenceQuery = Joi.object({ occurrence_id: intId.required() });
export const allowed = Joi.object({
  occurrence_id: Joi.number().integer(), current_state: Joi.string(),
  allowed_transitions: Joi.array().items(Joi.object({
    to_state: Joi.string(), label: Joi.string(), is_final: Joi.boolean(), requires: Joi.array().items(Joi.string()),
  }).label('AllowedTransition')),
}).label('AllowedTransitions');
export const transitionBody = Joi.object({
  to_state: stateKey.required(), comment: Joi.string().allow('').max(5000).default(''), expected_state: stateKey,
  duplicate_of: intId.description('Required when to_state is duplicate'),
}).label('TransitionInput');

// Settings.

const ring = Joi.array().items(Joi.array().items(Joi.number().min(-180).max(180)).length(2)).min(4).max(10_000);
export const settingsBody = Joi.object({
  service_area: Joi.alternatives(
    Joi.object({ type: Joi.string().valid('Polygon').required(), coordinates: Joi.array().items(ring).min(1).max(100).required() }),
    Joi.object({ type: Joi.string().valid('MultiPolygon').required(), coordinates: Joi.array().items(Joi.array().items(ring).min(1).max(100)).min(1).max(100).required() }),
  ).allow(null).required().description('A GeoJSON Polygon or MultiPolygon ([longitude, latitude]); null: no area check'),
}).label('OccurrenceSettingsInput');
export const settings = Joi.object({ service_area: Joi.object().unknown(true).allow(null) }).label('OccurrenceSettings');
export const publicServiceArea = Joi.object({ service_area: Joi.object().unknown(true).allow(null) }).label('PublicServiceArea');

// Supporting a report.

export const referenceParams = Joi.object({ reference: Joi.string().pattern(/^[A-Za-z0-9-]{1,40}$/).required().description('The occurrence\'s reference (OC-2026-000001)') });
export const supported = Joi.object({
  reference: Joi.string(), support_count: Joi.number().integer(), counted: Joi.boolean().description('false: this client already counted within the window'),
}).label('OccurrenceSupport');

// Message templates.

const templateText = (max: number) => Joi.string().max(max).pattern(/^[^\u0000]*$/);
export const templateBody = Joi.object({
  name: Joi.string().trim().min(1).max(200).required(),
  channel: Joi.string().valid('email', 'sms', 'note').required(),
  subject: templateText(1000).allow('').default(''),
  body: templateText(20_000).min(1).required(),
  type_ids: Joi.array().items(intId).max(1000).default([]).description('Occurrence types it applies to; empty: all'),
  states: Joi.array().items(stateKey).max(100).default([]).description('States it applies to; empty: all'),
  send_on_enter: Joi.boolean().default(false)
    .description('Applied by itself, in the same transaction, whenever an occurrence of its types enters one of its states (its creation in the initial state, a transition)'),
}).label('OccurrenceTemplateInput');
export const template = Joi.object({
  id: Joi.number().integer(), name: Joi.string(), channel: Joi.string(), subject: Joi.string().allow(''), body: Joi.string(),
  type_ids: Joi.array().items(Joi.number().integer()), states: Joi.array().items(Joi.string()), send_on_enter: Joi.boolean(),
  created_at: Joi.date(), updated_at: Joi.date(),
}).label('OccurrenceTemplate');
export const templateList = Joi.object({
  items: Joi.array().items(template),
  variables: Joi.object().pattern(Joi.string(), Joi.string()).description('The variables a template may use, with what each holds'),
}).label('OccurrenceTemplateList');
export const applicableTemplates = Joi.object({ items: Joi.array().items(template) }).label('ApplicableTemplates');
export const previewBody = Joi.object({
  occurrence_id: intId.required(),
  template_id: intId,
  subject: templateText(1000).allow(''),
  body: templateText(20_000),
}).or('template_id', 'body').label('TemplatePreviewInput');
export const preview = Joi.object({
  channel: Joi.string().allow(null), subject: Joi.string().allow(''), body: Joi.string().allow(''),
  unknown_variables: Joi.array().items(Joi.string()), applicable: Joi.boolean().allow(null),
}).label('TemplatePreview');
export const applyBody = Joi.object({ occurrence_id: intId.required(), template_id: intId.required() }).label('TemplateApplyInput');

// Open311 GeoReport v2.

export const open311Tenant = Joi.object({ tenant: Joi.string().max(64).required().description('The tenant alias') });
const serviceCode = Joi.string().pattern(/^[A-Za-z0-9_.-]{1,64}$/);
export const open311Service = open311Tenant.keys({ code: serviceCode.required() });
export const open311Request = open311Tenant.keys({ id: Joi.string().pattern(/^[A-Za-z0-9-]{1,40}$/).required().description('service_request_id (the reference)') });
const jurisdiction = Joi.string().max(200).description('Accepted and ignored: the tenant is in the path');
export const open311JurisdictionQuery = Joi.object({ jurisdiction_id: jurisdiction });
export const open311RequestsQuery = Joi.object({
  jurisdiction_id: jurisdiction,
  service_request_id: Joi.string().max(2000).pattern(/^[A-Za-z0-9-]+(,[A-Za-z0-9-]+)*$/).description('Comma-separated references'),
  service_code: serviceCode,
  start_date: Joi.date().iso(),
  end_date: Joi.date().iso(),
  status: Joi.string().valid('open', 'closed'),
}).label('Open311RequestsQuery');
export const open311Post = Joi.object({
  service_code: serviceCode.required(),
  lat: Joi.number().min(-90).max(90).required(),
  long: Joi.number().min(-180).max(180).required(),
  address_string: Joi.string().max(500).allow(''),
  description: Joi.string().max(10_000).allow(''),
  email: Joi.string().email({ tlds: false }).max(320),
  first_name: Joi.string().max(100).allow(''),
  last_name: Joi.string().max(100).allow(''),
  phone: Joi.string().pattern(/^[0-9+()\-. ]{3,40}$/),
  attribute: Joi.object().pattern(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, Joi.alternatives(Joi.string().max(2000), Joi.number(), Joi.boolean(), Joi.array().items(Joi.string().max(200)).max(100))),
  jurisdiction_id: jurisdiction, api_key: Joi.string().max(200), address_id: Joi.string().max(200), device_id: Joi.string().max(200),
  account_id: Joi.string().max(200), media_url: Joi.string().max(2000),
}).pattern(/^attribute\[[A-Za-z_][A-Za-z0-9_]{0,63}\]$/, Joi.string().max(2000)).label('Open311ServiceRequestInput');

const open311RequestItem = Joi.object({
  service_request_id: Joi.string(), status: Joi.string().valid('open', 'closed'), status_notes: Joi.string().allow(null), service_name: Joi.string().allow(null),
  service_code: Joi.string().allow(null), description: Joi.string().allow(''), agency_responsible: Joi.any().valid(null), service_notice: Joi.any().valid(null),
  requested_datetime: Joi.string(), updated_datetime: Joi.string(), expected_datetime: Joi.any().valid(null), address: Joi.string().allow('', null),
  address_id: Joi.any().valid(null), zipcode: Joi.any().valid(null), lat: Joi.number(), long: Joi.number(), media_url: Joi.any().valid(null),
}).label('Open311ServiceRequest');
export const open311Requests = Joi.array().items(open311RequestItem).label('Open311ServiceRequestList');
export const open311Created = Joi.array().items(Joi.object({ service_request_id: Joi.string(), service_notice: Joi.any(), account_id: Joi.any() }).label('Open311Created')).label('Open311CreatedList');
export const open311Services = Joi.array().items(Joi.object({
  service_code: Joi.string(), service_name: Joi.string(), description: Joi.string(), metadata: Joi.boolean(), type: Joi.string(), keywords: Joi.string().allow(''), group: Joi.string().allow(''),
}).label('Open311Service')).label('Open311ServiceList');
export const open311Definition = Joi.object({
  service_code: Joi.string(),
  attributes: Joi.array().items(Joi.object({
    variable: Joi.boolean(), code: Joi.string(), datatype: Joi.string(), required: Joi.boolean(), datatype_description: Joi.any(), order: Joi.number().integer(),
    description: Joi.string(), values: Joi.array().items(Joi.object({ key: Joi.string().allow(''), name: Joi.string().allow('') }).label('Open311AttributeValue')),
  }).label('Open311Attribute')),
}).label('Open311ServiceDefinition');
export const open311Discovery = Joi.object({
  changeset: Joi.string(), contact: Joi.string(), key_service: Joi.string(),
  endpoints: Joi.array().items(Joi.object({ specification: Joi.string(), url: Joi.string(), changeset: Joi.string(), type: Joi.string(), formats: Joi.array().items(Joi.string()) }).label('Open311Endpoint')),
}).label('Open311Discovery');
