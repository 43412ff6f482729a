// joi schemas of the source, stream and pattern routes (and so of the OpenAPI document).
// Free-form JSON a request gives (a configuration, a record schema, preset
// defaults) is bounded in depth (boundedJson); what the routes answer is not
// re-checked.
import Joi from 'joi';
import { boundedJson } from 'agent-platform/sdk';

const SYNC_MODES = ['full_refresh', 'incremental'];
const WRITE_MODES = ['overwrite', 'append', 'append_dedup'];

export const sourceName = Joi.string().pattern(/^[A-Za-z0-9_]{1,63}$/).description('[A-Za-z0-9_], 1-63 characters; unique in the tenant; names its streams\' default datasets');
const patternId = Joi.string().pattern(/^[a-z0-9_]{1,63}$/);
const credentialRef = Joi.string().pattern(/^cred_[A-Za-z0-9_-]{16,64}$/).description('An opaque credential reference (vault mode)');
const credentialValues = Joi.object().pattern(Joi.string().max(200), Joi.string().max(10_000))
  .max(50).description('Write-only: the pattern\'s credential fields (never read back)');
const credentialName = Joi.string().min(1).max(200).description('Name of the credential created from credential_values (vault mode)');
const jsonObject = Joi.object().unknown(true);
const sourceConfig = boundedJson('SourceConfig');

export const patternParams = Joi.object({ pattern_id: patternId.required() });
export const sourceParams = Joi.object({ source_id: Joi.string().guid().required() });
export const streamParams = Joi.object({ source_id: Joi.string().guid().required(), stream_id: Joi.string().guid().required() });
export const pageQuery = Joi.object({
  limit: Joi.number().integer().min(1).max(500).default(100),
  offset: Joi.number().integer().min(0).max(1_000_000).default(0),
});

export const sourceCreate = Joi.object({
  name: sourceName.required(),
  pattern_id: patternId.required().description('The pattern (connector): GET /api/v1/patterns/discover'),
  source_config: sourceConfig.default({}).description('Configuration per the pattern\'s schema, without credential fields'),
  credential_values: credentialValues,
  credential_name: credentialName,
  credential_ref: credentialRef,
}).label('SourceCreate');

export const sourcePatch = Joi.object({
  name: sourceName,
  source_config: sourceConfig.description('Replaces the configuration (credential fields stay where they are)'),
  credential_values: credentialValues,
  credential_name: credentialName,
  credential_ref: credentialRef.allow(null).description('A credential to use instead (vault mode); null detaches (the credential stays in the store)'),
}).min(1).label('SourcePatch');

export const source = Joi.object({
  id: Joi.string(),
  name: Joi.string(),
  pattern_id: Joi.string(),
  source_config: jsonObject.description('Without credential fields'),
  credential_mode: Joi.string().valid('vault', 'legacy_inline'),
  credential_ref: Joi.string().allow(null),
  credential_name: Joi.string().allow(null),
  credential_fields: Joi.array().items(Joi.string()).description('The pattern\'s declared credential fields'),
  credential_fields_set: Joi.array().items(Joi.string()).description('Declared fields that have a value (the values are never returned)'),
  state: Joi.string().valid('ready', 'active').description('ready: configured, never synced; active: synced at least once'),
  created_by: Joi.string().allow(null),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).label('Source');

export const sourceList = Joi.object({
  items: Joi.array().items(source), total: Joi.number().integer(), limit: Joi.number().integer(), offset: Joi.number().integer(),
}).label('SourceList');

const streamSettings = {
  schema: jsonObject.description('JSON Schema of a record ({type: object, properties})'),
  supported_sync_modes: Joi.array().items(Joi.string().valid(...SYNC_MODES)).min(1).unique(),
  sync_mode: Joi.string().valid(...SYNC_MODES),
  write_mode: Joi.string().valid(...WRITE_MODES),
  cursor_field: Joi.string().min(1).max(200).allow(null),
  primary_key: Joi.array().items(Joi.string().min(1).max(200)).max(20).unique(),
  enabled: Joi.boolean(),
  destination: Joi.string().min(1).max(256).description('Destination routing: the dataset raw.<tenant>.<table> the stream lands in'),
};

/** The settings a request gives: the record schema bounded in depth. */
const givenSettings = { ...streamSettings, schema: boundedJson('StreamRecordSchema').description('JSON Schema of a record ({type: object, properties})') };

export const streamCreate = Joi.object({
  name: Joi.string().min(1).max(200).required(),
  namespace: Joi.string().min(1).max(200).allow(null).description('A real upstream container (a database schema); null for API streams'),
  ...givenSettings,
}).label('StreamCreate');

export const streamPatch = Joi.object(givenSettings).min(1).label('StreamPatch');

export const streamsBulk = Joi.object({
  streams: Joi.array().items(Joi.object({ stream_id: Joi.string().guid().required(), ...givenSettings }).label('StreamBulkPatch')).min(1).max(500).required(),
}).label('StreamsBulk');

export const discoveredStream = Joi.object({
  name: Joi.string().min(1).max(200).required(),
  namespace: Joi.string().min(1).max(200).allow(null).default(null),
  schema: boundedJson('StreamRecordSchema').required(),
  supported_sync_modes: Joi.array().items(Joi.string().valid(...SYNC_MODES)).min(1).unique().default(['full_refresh']),
  source_defined_primary_key: Joi.array().items(Joi.string().min(1).max(200)).max(20),
}).label('DiscoveredStream');

export const refreshSchema = Joi.object({
  streams: Joi.array().items(discoveredStream).max(5000).required().description('A complete discovery snapshot'),
}).label('RefreshSchema');

export const stream = Joi.object({
  id: Joi.string(),
  source_id: Joi.string(),
  name: Joi.string(),
  namespace: Joi.string().allow(null),
  ...streamSettings,
  state: jsonObject.description('Runtime state: the committed cursor and the last run'),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).label('Stream');

export const streamList = Joi.object({ items: Joi.array().items(stream) }).label('StreamList');
export const refreshResult = Joi.object({
  created: Joi.array().items(Joi.string()), refreshed: Joi.array().items(Joi.string()), removed: Joi.array().items(Joi.string()),
  items: Joi.array().items(stream),
}).label('RefreshSchemaResult');

export const pattern = Joi.object({
  id: Joi.string(),
  name: Joi.string(),
  description: Joi.string(),
  built_in: Joi.boolean().description('false: added by a plugin (the pipelines-sources.patterns extension point) or registered as a preset'),
  base_pattern: Joi.string().allow(null).description('A preset\'s base pattern'),
  config_schema: jsonObject.description('JSON Schema of source_config; credential: true or type: password marks write-only fields'),
  credential_fields: Joi.array().items(Joi.string()),
}).label('SourcePattern');

export const patternList = Joi.object({ items: Joi.array().items(pattern) }).label('SourcePatternList');

export const registration = Joi.object({
  id: patternId.required().description('The preset\'s pattern id (not a built-in or plugin one)'),
  base_pattern: patternId.required().description('The code pattern it presets'),
  name: Joi.string().min(1).max(200).required(),
  description: Joi.string().max(2000).allow('').default(''),
  defaults: boundedJson('PatternDefaults').default({}).description('Values of the base\'s non-credential fields, applied as defaults'),
}).label('PatternRegistration');

export const reconcile = Joi.object({
  patterns: Joi.array().items(registration).max(1000).required().description('The complete list of presets the registry owns'),
}).label('PatternReconcile');

export const registered = Joi.object({ id: Joi.string(), managed_by: Joi.string() }).label('PatternRegistered');
export const reconciled = Joi.object({ upserted: Joi.array().items(Joi.string()), removed: Joi.array().items(Joi.string()) }).label('PatternReconciled');
