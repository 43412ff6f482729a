// joi schemas of the forms routes (and so of the OpenAPI document). A form
// schema is checked by formSchemaProblems (which names every component at
// fault); joi checks the envelope, and bounds the nesting of free JSON so
// that nothing deeper than the text guard walks reaches the database.
import { boundedJson, Joi } from 'agent-platform/sdk';
import { MODEL_PATH } from './targets/registry.ts';
import { TRANSFORMS } from './hydration/transforms.ts';

const json = boundedJson;

export const id = Joi.string().guid().description('A UUID');
export const idParams = Joi.object({ id: id.required() });
export const versionParams = Joi.object({ id: id.required(), version: Joi.number().integer().min(1).max(1_000_000).required() });
export const fileParams = Joi.object({ id: id.required(), file_id: id.required() });
export const modelParams = Joi.object({
  model: Joi.string().max(256).pattern(MODEL_PATH).required().description('A target\'s model path, e.g. occurrences.Occurrence'),
});

export const paging = Joi.object({
  skip: Joi.number().integer().min(0).max(1_000_000).default(0),
  limit: Joi.number().integer().min(1).max(500).default(50),
});

export const listOf = (item: Joi.Schema, label: string) =>
  Joi.object({ items: Joi.array().items(item), total: Joi.number().integer(), skip: Joi.number(), limit: Joi.number() }).label(label);

const name = Joi.string().trim().min(1).max(200);
const description = Joi.string().allow('').max(2000);
const formSchema = json('FormioSchema').description('A Form.io form: {display?, components: [...]}');

export const createDefinition = Joi.object({ name: name.required(), description, schema: formSchema.required() }).label('CreateFormDefinition');
export const updateDefinition = Joi.object({
  name, description, schema: formSchema.description('A schema different from the latest version\'s becomes the next version'),
}).min(1).label('UpdateFormDefinition');

const definitionFields = {
  id, name: Joi.string(), description: Joi.string().allow(''), latest_version: Joi.number().integer(), created_at: Joi.date(), updated_at: Joi.date(),
};
export const definitionSummary = Joi.object(definitionFields).label('FormDefinitionSummary');
export const definition = Joi.object({ ...definitionFields, schema: Joi.object().unknown(true) }).label('FormDefinition');
export const versionSummary = Joi.object({ version: Joi.number().integer(), created_by: Joi.string().allow(null), created_at: Joi.date() }).label('FormVersionSummary');
export const version = versionSummary.keys({ definition_id: id, schema: Joi.object().unknown(true) }).label('FormVersion');
export const validateBody = Joi.object({
  payload: json('FormPayload').required().description('The form data, as a submission would carry it'),
}).label('FormValidateRequest');
export const validation = Joi.object({
  valid: Joi.boolean(),
  errors: Joi.array().items(Joi.object({ path: Joi.string().allow(''), message: Joi.string() }).label('FormValidationError')),
  data: Joi.object().unknown(true).description('The payload as Form.io keeps it: this form\'s fields only, hidden values cleared, values normalised'),
}).label('FormValidation');
export const versionList = Joi.object({ items: Joi.array().items(versionSummary) }).label('FormVersionList');

const access = Joi.string().valid('public', 'authenticated');
const formVersion = Joi.alternatives(Joi.number().integer().min(1).max(1_000_000), Joi.string().valid('latest'));
const modelPath = Joi.string().max(256).pattern(MODEL_PATH);
const targetConfig = json('TargetConfig').description('Settings of the target, checked against its config schema (GET /api/admin/forms/targets)');

const binding = Joi.object({
  source_field_path: Joi.string().max(512).pattern(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/).required()
    .description('A data path of the form version (`address.street`)'),
  target_field_path: Joi.string().max(256).pattern(/^[A-Za-z_][A-Za-z0-9_.-]*$/).required().description('A field key of the target'),
  transform: Joi.string().valid(...TRANSFORMS).default('NONE'),
  transform_params: json('TransformParams').default({}).description('LOOKUP: {table}; GEO_PARSE: {component: latitude|longitude}; else {}'),
}).label('FieldBinding');
const bindingArray = Joi.array().items(binding).max(500);
export const bindings = Joi.object({ bindings: bindingArray.required() }).label('FieldBindings');

export const createUseCase = Joi.object({
  name: name.required(),
  form_definition_id: id.required(),
  form_version: formVersion.default('latest').description('A version number, or "latest" (the definition\'s latest at each submission)'),
  target_model: modelPath.required(),
  target_config: targetConfig.default({}),
  access: access.required().description('public: anyone may submit with X-Tenant-ID (rate limited per address); authenticated: a user of the tenant'),
  active: Joi.boolean().default(true),
  bindings: bindingArray.description('Field bindings saved with it (GET/PUT .../bindings later); every required target field must be bound or standard-mapped'),
}).label('CreateUseCase');

export const updateUseCase = Joi.object({
  name, form_definition_id: id, form_version: formVersion, target_model: modelPath, target_config: targetConfig, access, active: Joi.boolean(),
  bindings: bindingArray.description('Replace the saved bindings in the same change (left out: the saved ones must fit the changed use case)'),
}).min(1).label('UpdateUseCase');

export const useCase = Joi.object({
  id, name: Joi.string(), form_definition_id: id, form_version: formVersion, target_model: Joi.string(),
  target_config: Joi.object().unknown(true), access, active: Joi.boolean(), created_at: Joi.date(), updated_at: Joi.date(),
}).label('UseCase');

const option = Joi.object({ id: Joi.alternatives(Joi.string(), Joi.number()), label: Joi.string() }).label('ConfigOption');
const configItem = Joi.object({
  key: Joi.string(), label: Joi.string(), type: Joi.string().valid('fk', 'choice', 'boolean', 'text'), required: Joi.boolean(),
  default: Joi.any().required().description('null when the item has none'), help_text: Joi.string().allow('', null), options: Joi.array().items(option),
}).label('ConfigItem');
export const targetList = Joi.object({
  items: Joi.array().items(Joi.object({
    model: Joi.string(), label: Joi.string(), description: Joi.string().allow(''), config_schema: Joi.array().items(configItem),
  }).label('HydrationTarget')),
}).label('HydrationTargetList');
export const fieldsQuery = Joi.object({ config: Joi.string().max(20_000).description('The target config as JSON (default {})') });
export const fieldList = Joi.object({
  items: Joi.array().items(Joi.object({
    key: Joi.string(), label: Joi.string(), field_type: Joi.string(), category: Joi.string().valid('required', 'auto_filled', 'optional', 'dynamic'),
    required: Joi.boolean(), help_text: Joi.string().allow(null).required().description('null when the field has none'),
  }).label('FieldInfo')),
}).label('FieldInfoList');
export const suggestionsBody = Joi.object({
  config: targetConfig.default({}),
  form_definition_id: id.required(),
  version: Joi.number().integer().min(1).max(1_000_000).description('Default: the latest'),
}).label('SuggestionsRequest');
export const bindingList = Joi.object({ items: Joi.array().items(binding) }).label('FieldBindingList');
export const standardMappings = Joi.object({
  items: Joi.array().items(Joi.object({
    source_path: Joi.string(), target_field: Joi.string(), component: Joi.string().valid('latitude', 'longitude'),
  }).label('StandardMapping')),
}).label('StandardMappingList');

export const submissionBody = Joi.object({
  payload: json('FormPayload').required().description('The form data; a file field holds file references {file_token, name, content_type, size}'),
  municipality: Joi.string().max(200).allow(null),
}).label('FormSubmissionRequest');
export const previewBody = submissionBody.label('FormPreviewRequest');

const fileRef = Joi.object({ id, path: Joi.string().allow(''), name: Joi.string(), content_type: Joi.string(), size: Joi.number().integer() }).label('SubmissionFile');
const hydration = Joi.object({ target_model: Joi.string(), object_id: Joi.string(), object: Joi.object().unknown(true) }).label('Hydration');
export const submitted = Joi.object({
  id, use_case_id: id, form_definition_id: id, form_version: Joi.number().integer(), municipality: Joi.string().allow(null),
  created_at: Joi.date(), files: Joi.array().items(fileRef), hydration,
}).label('FormSubmitted');
export const preview = submitted.keys({ preview: Joi.boolean() }).label('FormPreview');

export const submissionQuery = paging.keys({
  use_case_id: id,
  from: Joi.date().iso().description('Submitted at or after'),
  to: Joi.date().iso().description('Submitted before'),
  hydration_status: Joi.string().valid('hydrated', 'failed').description('Of the latest hydration attempt'),
});
const hydrationSummary = Joi.object({
  status: Joi.string().valid('hydrated', 'failed'), attempts: Joi.number().integer(), target_model: Joi.string().allow(null), object_id: Joi.string().allow(null),
}).unknown(true).label('HydrationSummary');
export const submissionSummary = Joi.object({
  id, use_case_id: id, form_definition_id: id, form_version: Joi.number().integer(), payload_json: Joi.object().unknown(true),
  municipality: Joi.string().allow(null), submitted_by: Joi.string().allow(null), created_at: Joi.date(), redacted_at: Joi.date().allow(null),
  hydration: hydrationSummary,
}).label('FormSubmissionSummary');
export const submission = submissionSummary.keys({
  files: Joi.array().items(Joi.object().unknown(true)), redactions: Joi.array().items(Joi.object().unknown(true)),
}).label('FormSubmission');
export const redactBody = Joi.object({
  fields: Joi.array().items(Joi.string().max(512)).max(500).default([]).description('Payload paths whose values become "[redacted]"'),
  reason: Joi.string().trim().min(1).max(1000).required(),
}).label('RedactSubmission');
export const attempt = Joi.object({
  attempt: Joi.number().integer(), status: Joi.string().valid('hydrated', 'failed'), target_model: Joi.string(), object_id: Joi.string().allow(null),
  object: Joi.object().unknown(true).allow(null), errors: Joi.array().items(Joi.object({ path: Joi.string().allow(''), message: Joi.string() })),
}).label('HydrationAttempt');

export const uploadPayload = Joi.object({ file: Joi.any().required().description('The file (multipart/form-data part)') }).label('FormFileUpload');
export const uploaded = Joi.object({
  file_token: Joi.string(), name: Joi.string(), content_type: Joi.string(), size: Joi.number().integer(), expires_at: Joi.date(),
}).label('FormFileToken');
export const publicUseCase = Joi.object({
  id, name: Joi.string(), access, form_definition_id: id, form_version: Joi.number().integer(), schema: Joi.object().unknown(true),
}).label('FormUseCase');
