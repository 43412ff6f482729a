// joi schemas of the credential routes (vault mode).
import Joi from 'joi';

const values = Joi.object().pattern(Joi.string().max(200), Joi.string().max(10_000)).min(1).max(50)
  .description('Write-only: the pattern\'s credential fields (never read back)');

export const refParams = Joi.object({ credential_ref: Joi.string().pattern(/^cred_[A-Za-z0-9_-]{16,64}$/).required() });

export const attachBody = Joi.object({
  credential_values: values,
  credential_name: Joi.string().min(1).max(200),
  credential_ref: Joi.string().pattern(/^cred_[A-Za-z0-9_-]{16,64}$/),
}).label('CredentialAttach');

export const rotateBody = Joi.object({ credential_values: values.required() }).label('CredentialRotate');
export const migrateBody = Joi.object({ credential_name: Joi.string().min(1).max(200) }).allow(null).label('CredentialMigrate');

export const metadata = Joi.object({
  credential_ref: Joi.string().description('Opaque reference'),
  name: Joi.string(),
  kind: Joi.string().description('The pattern whose fields it holds'),
  field_names: Joi.array().items(Joi.string()),
  presence: Joi.object().pattern(Joi.string(), Joi.boolean()).description('Each declared credential field: whether it has a value'),
  version: Joi.string().description('Exact version (decimal string)'),
  status: Joi.string().valid('active', 'revoked'),
  rotated_at: Joi.date().allow(null),
  reference_count: Joi.number().integer().description('Sources using it'),
  created_at: Joi.date(),
}).label('CredentialMetadata');

export const revoked = Joi.object({
  credential_ref: Joi.string(), name: Joi.string(), kind: Joi.string(), status: Joi.string(), version: Joi.string(), reference_count: Joi.number(),
}).label('CredentialRevoked');
