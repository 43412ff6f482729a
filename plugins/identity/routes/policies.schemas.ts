// joi schemas of the identity-policy routes (and so of the OpenAPI document).
import { Joi } from 'agent-platform/sdk';

const fieldName = Joi.string().pattern(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/).description('A record property: [A-Za-z0-9_.-], up to 100 characters');
const normalizers = Joi.array().items(Joi.string().max(20)).max(6)
  .description('case, accents, whitespace, phone (digits; phone:<country code> adds the code to national numbers), email (trim, lowercase; email:gmail also drops dots and +tags of gmail addresses)');
export const policyName = Joi.string().pattern(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/).description('Unique in the tenant');

const identityField = Joi.object({
  field: fieldName.required(),
  normalizers,
  threshold: Joi.number().min(0.05).max(1).description('fuzzy rules: pg_trgm similarity the values need (absent: equal after normalization)'),
}).label('IdentityField');

const rule = Joi.object({
  name: Joi.string().pattern(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/).required(),
  kind: Joi.string().valid('exact', 'normalized', 'fuzzy').required(),
  fields: Joi.array().items(identityField).min(1).max(10).required(),
}).label('IdentityRule');

const blockingKey = Joi.object({
  field: fieldName.required(),
  normalizers,
  prefix: Joi.number().integer().min(1).max(100).description('block on the first characters of the normalized value'),
}).label('BlockingKey');

const specFields = {
  description: Joi.string().allow('').max(2000),
  rules: Joi.array().items(rule).min(1).max(20).required().description('In order: a pair reports the first rule that merged it'),
  blocking_keys: Joi.array().items(blockingKey).max(5).default([]).description('Fuzzy rules compare only records sharing one of these'),
  max_block_size: Joi.number().integer().min(2).max(100_000).description('Blocks larger than this are not compared by fuzzy rules (default IDENTITY_MAX_BLOCK_SIZE)'),
};

export const policyInput = Joi.object({ name: policyName.required(), ...specFields }).label('IdentityPolicyInput');
export const policyParams = Joi.object({ policy_id: Joi.string().guid().required() });
export const versionParams = Joi.object({ policy_id: Joi.string().guid().required(), version: Joi.number().integer().min(1).max(1_000_000).required() });
export const pageQuery = Joi.object({
  limit: Joi.number().integer().min(1).max(500).default(100),
  offset: Joi.number().integer().min(0).max(1_000_000).default(0),
});
export const cloneInput = Joi.object({
  name: policyName.required(),
  description: Joi.string().allow('').max(2000),
  version: Joi.number().integer().min(1).max(1_000_000).description('The version to copy (default: current)'),
}).label('IdentityPolicyClone');

const scalar = Joi.alternatives(Joi.string().max(10_000).allow(''), Joi.number(), Joi.boolean()).allow(null);
export const dryRunInput = Joi.object({
  version: Joi.number().integer().min(1).max(1_000_000).description('default: the current version'),
  records: Joi.array().items(Joi.object({
    ref: Joi.string().min(1).max(200).required(),
    values: Joi.object().pattern(fieldName, scalar).max(100).required(),
  })).max(100_000).description('The sample (refs unique); or dataset_id'),
  dataset_id: Joi.string().max(400).description('A dataset the tenant may read: its latest snapshot is sampled'),
  ref_column: fieldName.description('With dataset_id: the column naming each record (default: its row number)'),
  limit: Joi.number().integer().min(2).max(1_000_000).description('With dataset_id: rows sampled (at most IDENTITY_DRY_RUN_MAX_RECORDS)'),
}).xor('records', 'dataset_id').label('IdentityDryRunInput');

const storedField = Joi.object({ field: Joi.string(), normalizers: Joi.array().items(Joi.string()), threshold: Joi.number() }).label('IdentityFieldOut');
const spec = {
  fingerprint: Joi.string().description('sha-256 of the matching spec'),
  rules: Joi.array().items(Joi.object({ name: Joi.string(), kind: Joi.string(), fields: Joi.array().items(storedField) }).label('IdentityRuleOut')),
  blocking_keys: Joi.array().items(Joi.object({ field: Joi.string(), normalizers: Joi.array().items(Joi.string()), prefix: Joi.number() }).label('BlockingKeyOut')),
  max_block_size: Joi.number().integer(),
  created_by: Joi.string().allow(null),
  created_at: Joi.date(),
};
export const policy = Joi.object({
  id: Joi.string(), name: Joi.string(), description: Joi.string().allow(''), version: Joi.number().integer().description('current version'),
  ...spec, updated_at: Joi.date(),
}).label('IdentityPolicy');
export const policyList = Joi.object({
  items: Joi.array().items(policy), total: Joi.number().integer(), limit: Joi.number().integer(), offset: Joi.number().integer(),
}).label('IdentityPolicyList');
export const policyVersion = Joi.object({ policy_id: Joi.string(), version: Joi.number().integer(), ...spec }).label('IdentityPolicyVersion');
export const versionList = Joi.object({ items: Joi.array().items(policyVersion) }).label('IdentityPolicyVersionList');
export const dryRunResult = Joi.object({
  policy_id: Joi.string(), version: Joi.number().integer(), fingerprint: Joi.string(), records: Joi.number().integer(),
  merges: Joi.array().items(Joi.object({ a: Joi.string(), b: Joi.string(), rule: Joi.string(), score: Joi.number() }).label('IdentityMerge'))
    .description('The merges it would make (a spanning forest of the clusters), each with the rule that matched'),
  clusters: Joi.array().items(Joi.array().items(Joi.string())).description('Entities of more than one record (refs)'),
  skipped_blocks: Joi.array().items(Joi.object({ key: Joi.string(), size: Joi.number().integer() }).label('IdentitySkippedBlock')),
  stored: Joi.boolean().description('Always false: a dry run stores nothing'),
}).label('IdentityDryRunResult');
