// The declarative kind `IdentityPolicy`, for the pipelines-apply kind
// registry. A document names its policy by
// metadata.name:
//
//   apiVersion: agent-platform/v1
//   kind: IdentityPolicy
//   metadata: { name: people }
//   spec: { description, rules: [...], blocking_keys: [...], max_block_size }
//
// Plans: create (no policy of that name), patch (the changed fields: a
// changed matching spec makes a new version when applied), noop (same
// fingerprint and description). Planning never writes.
//
import { badRequest } from 'agent-platform/sdk';
import type { ApplyDocument, ApplyKindHandler } from '../../pipelines-apply/api.ts';
import { policyInput } from '../routes/policies.schemas.ts';
import type { PolicyInput, PolicyService } from '../services/policies.ts';

export const IDENTITY_POLICY_KIND = 'IdentityPolicy';

const specSchema = policyInput.fork(['name'], (schema) => schema.forbidden()).label('IdentityPolicySpec');
// Joi would quote a value that fails a pattern: nothing of a document is echoed.
const SANITIZED = { 'string.pattern.base': '{{#label}} does not have the required format', 'any.only': '{{#label}} is not one of the allowed values' };

function parse(doc: ApplyDocument): PolicyInput {
  const { error, value } = specSchema.validate(doc.spec, { abortEarly: false, messages: SANITIZED, errors: { label: 'path' } });
  if (error) throw badRequest(`spec: ${error.details.map((d) => d.message).join('; ')}`, 'VALIDATION_FAILED');
  const name = doc.metadata.name;
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/.test(name)) throw badRequest('metadata.name does not have the required format', 'VALIDATION_FAILED');
  return { ...(value as Omit<PolicyInput, 'name'>), name };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function identityPolicyKind(policies: PolicyService): ApplyKindHandler {
  return {
    kind: IDENTITY_POLICY_KIND,
    async plan(ctx, doc) {
      const input = parse(doc);
      const { spec, fingerprint } = policies.specOf(input);
      const existing = await policies.findByName(ctx.tenantId, input.name);
      if (!existing) {
        return { action: 'create', execute: async (trx) => ({ id: (await policies.createIn(trx, ctx.tenantId, ctx.principal.sub, input)).id }) };
      }
      const changes: string[] = [];
      if (fingerprint !== existing.fingerprint) {
        if (!same(spec.rules, existing.rules)) changes.push('spec.rules');
        if (!same(spec.blocking_keys, existing.blocking_keys)) changes.push('spec.blocking_keys');
        if (spec.max_block_size !== existing.max_block_size) changes.push('spec.max_block_size');
      }
      if (input.description !== undefined && input.description !== existing.description) changes.push('spec.description');
      if (changes.length === 0) return { action: 'noop', id: existing.id };
      return {
        action: 'patch', id: existing.id, changes,
        message: fingerprint !== existing.fingerprint ? `makes version ${existing.version + 1}` : undefined,
        execute: async (trx) => ({ id: (await policies.replaceIn(trx, ctx.tenantId, existing.id, ctx.principal.sub, input)).id }),
      };
    },
  };
}
