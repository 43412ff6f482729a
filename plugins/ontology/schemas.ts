// joi schemas of the ontology and backing-dataset routes (and so of the OpenAPI document).
import { boundedJson, Joi } from 'agent-platform/sdk';

const code = Joi.string().pattern(/^[a-z][a-z0-9_]{0,62}$/).description('[a-z][a-z0-9_], up to 63 characters; unique in the tenant');
const identifier = Joi.string().pattern(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/);
const column = Joi.string().min(1).max(200).pattern(/^[^\0]+$/);
const datasetId = Joi.string().min(5).max(400).pattern(/^[^\0]+$/).description('<namespace>.<tenant_or_layer>.<table>');
const fingerprint = Joi.string().allow(null).description('sha256:<hex> of the canonical JSON of the effective spec');
const json = Joi.object().unknown(true);

const relationship = Joi.object({
  name: identifier.required(),
  target_type: code.required().description('The related entity type (this type itself allowed)'),
  cardinality: Joi.string().valid('one', 'many').required().description('one: the property holds one key of the target; many: an array of them'),
  via: identifier.required().description('The property of this type holding the target\'s key value(s) (a single-key target)'),
}).label('EntityRelationship');

const definition = {
  name: Joi.string().min(1).max(200),
  description: Joi.string().max(5000).allow(null, ''),
  properties: boundedJson('EntityProperties').description('JSON Schema of the entity: {type: "object", properties: {...}, required}'),
  keys: Joi.array().items(identifier).min(1).max(10).unique().description('The properties identifying an entity'),
  relationships: Joi.array().items(relationship).max(100),
  carrier_types: Joi.array().items(code).max(50).unique().description('Entity types whose entities carry (host) entities of this type, e.g. street_light for a luminaire sensor'),
};

export const codeParams = Joi.object({ code: code.required() });
export const typeQuery = Joi.object({ after: code, limit: Joi.number().integer().min(1).max(500).default(100) });
export const deleteQuery = Joi.object({ allow_deprecate: Joi.boolean().default(false).description('Deprecate (keep) a type that backing datasets use instead of refusing') });

export const entityTypeCreate = Joi.object({
  code: code.required(), ...definition,
  name: definition.name.required(), properties: definition.properties.required(), keys: definition.keys.required(),
  description: definition.description.default(null), relationships: definition.relationships.default([]), carrier_types: definition.carrier_types.default([]),
}).label('EntityTypeCreate');

export const entityTypeVersion = Joi.object({
  ...definition,
  name: definition.name.required(), properties: definition.properties.required(), keys: definition.keys.required(),
  description: definition.description.default(null), relationships: definition.relationships.default([]), carrier_types: definition.carrier_types.default([]),
}).label('EntityTypeVersionCreate');

export const entityTypePatch = Joi.object(definition).min(1).label('EntityTypePatch');

const versionFields = {
  code: Joi.string(), version: Joi.number().integer(), name: Joi.string(), description: Joi.string().allow(null, ''), properties: json,
  keys: Joi.array().items(Joi.string()), relationships: Joi.array().items(json), carrier_types: Joi.array().items(Joi.string()),
  created_by: Joi.string().allow(null), created_at: Joi.date(),
};
export const entityTypeVersionView = Joi.object(versionFields).label('EntityTypeVersion');
export const entityType = Joi.object({
  ...versionFields, current_version: Joi.number().integer(), deprecated: Joi.boolean(), deprecated_at: Joi.date().allow(null), updated_at: Joi.date(),
}).label('EntityType');
export const entityTypeList = Joi.object({ items: Joi.array().items(entityType), next_cursor: Joi.string().allow(null) }).label('EntityTypeList');
export const entityTypeVersions = Joi.object({ items: Joi.array().items(entityTypeVersionView) }).label('EntityTypeVersions');
export const status = Joi.object({
  status: Joi.string(), sync_contract_version: Joi.number().integer(), platform_env: Joi.string(), tenant_bindings_enforced: Joi.boolean(),
}).label('OntologyStatus');

const mapping = Joi.object({ column: column.required(), property: identifier.required() }).label('BackingDatasetMapping');
const backingFields = {
  name: Joi.string().pattern(/^[A-Za-z0-9_-]{1,100}$/),
  dataset_id: datasetId,
  entity_type: code,
  entity_type_version: Joi.number().integer().min(1).allow(null).description('Pin a version; null follows the type\'s current version'),
  mappings: Joi.array().items(mapping).min(1).max(500),
  key_columns: Joi.array().items(column).min(1).max(10).unique().description('Columns mapped onto the type\'s keys'),
  identity_policy_id: Joi.string().max(200).pattern(/^[^\0]+$/).allow(null).description('The identity policy (plugin identity) whose version and fingerprint enter the effective spec'),
};
export const backingCreate = Joi.object({
  ...backingFields,
  name: backingFields.name.required(), dataset_id: backingFields.dataset_id.required(), entity_type: backingFields.entity_type.required(),
  mappings: backingFields.mappings.required(), key_columns: backingFields.key_columns.required(),
  entity_type_version: backingFields.entity_type_version.default(null), identity_policy_id: backingFields.identity_policy_id.default(null),
}).label('BackingDatasetCreate');
export const backingPatch = Joi.object(backingFields).min(1).label('BackingDatasetPatch');
export const backingParams = Joi.object({ backing_dataset_id: Joi.string().guid().required() });
export const runParams = Joi.object({ backing_dataset_id: Joi.string().guid().required(), run_id: Joi.string().guid().required() });
export const backingQuery = Joi.object({ after: backingFields.name, limit: Joi.number().integer().min(1).max(500).default(100) });
export const historyQuery = Joi.object({ before: Joi.string().guid().description('A run id: runs older than it'), limit: Joi.number().integer().min(1).max(500).default(50) });
export const syncQuery = Joi.object({ force: Joi.boolean().default(false).description('Replay even when the snapshot and the effective spec are unchanged') });
export const suggestBody = Joi.object({
  dataset_id: datasetId.required(), entity_type: code.required(), entity_type_version: Joi.number().integer().min(1),
}).label('SuggestMappingsRequest');

export const backingDataset = Joi.object({
  id: Joi.string(), ...backingFields, name: Joi.string(), dataset_id: Joi.string(), mappings: Joi.array().items(json), key_columns: Joi.array().items(Joi.string()),
  applied_sync_spec_fingerprint: fingerprint, applied_snapshot_id: Joi.number().allow(null).description('Deprecated: use applied_snapshot_id_exact'),
  applied_snapshot_id_exact: Joi.string().allow(null), created_by: Joi.string().allow(null), created_at: Joi.date(), updated_at: Joi.date(),
}).label('BackingDataset');
export const backingList = Joi.object({ items: Joi.array().items(backingDataset), next_cursor: Joi.string().allow(null) }).label('BackingDatasetList');
export const capabilities = Joi.object({
  sync_contract_version: Joi.number().integer(), supports_exact_run_polling: Joi.boolean(), supports_force_replay: Joi.boolean(),
}).label('SyncCapabilities');

const runFields = {
  id: Joi.string(), run_id: Joi.string(), backing_dataset_id: Joi.string(), workflow_id: Joi.string().allow(null),
  status: Joi.string().valid('queued', 'running', 'succeeded', 'skipped', 'failed'), sync_contract_version: Joi.number().integer(),
  force: Joi.boolean(), force_replay: Joi.boolean().description('true when a force request was accepted (the run replays)'),
  replay_reason: Joi.string().allow(null).description('first_sync, snapshot_changed, effective_spec_changed or force'),
  effective_spec_changed: Joi.boolean(), attempted_sync_spec_fingerprint: fingerprint, applied_sync_spec_fingerprint: fingerprint,
  entity_type_version: Joi.number().integer(),
  snapshot_id: Joi.number().allow(null).description('Deprecated: use snapshot_id_exact'), snapshot_id_exact: Joi.string().allow(null),
  rows_synced: Joi.number().integer(), is_terminal: Joi.boolean(), attempts: Joi.number().integer(), error: Joi.string().allow(null),
  requested_by: json, created_at: Joi.date(), started_at: Joi.date().allow(null), finished_at: Joi.date().allow(null),
};
export const syncRun = Joi.object(runFields).label('SyncRun');
export const exactRun = Joi.object({
  ...runFields,
  bulk_jobs: Joi.array().items(Joi.object({
    job_id: Joi.string(), operation: Joi.string(), submitted_count: Joi.number().integer(), completed_count: Joi.number().integer(),
  }).label('SyncBulkJob')),
}).label('SyncRunExact');
export const runList = Joi.object({ items: Joi.array().items(syncRun), next_cursor: Joi.string().allow(null) }).label('SyncRunList');
export const runLogs = Joi.object({ items: Joi.array().items(Joi.object({ at: Joi.date(), level: Joi.string(), message: Joi.string() }).label('SyncLogLine')) }).label('SyncRunLogs');
export const pendingList = Joi.object({ items: Joi.array().items(json) }).label('PendingSyncs');
export const health = json.label('BackingDatasetHealth');
export const suggestions = Joi.object({
  dataset_id: Joi.string(), entity_type: Joi.string(), entity_type_version: Joi.number().integer(),
  method: Joi.string().valid('model', 'rules').description('model: the pipelines-ai model\'s answer, checked against the columns and properties; rules: the deterministic matching'),
  model_error: Joi.object({ code: Joi.string(), message: Joi.string() }).label('SuggestModelError').description('Why the model\'s answer was not used (the rules answered)'),
  mappings: Joi.array().items(Joi.object({ column: Joi.string(), property: Joi.string(), score: Joi.number().description('The rules\' score, or the model\'s confidence (0..1)'), reasons: Joi.array().items(Joi.string()) }).label('MappingSuggestion')),
  key_columns: Joi.array().items(Joi.string()), unmapped_properties: Joi.array().items(Joi.string()),
}).label('MappingSuggestions');
