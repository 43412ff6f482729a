// The identity-policy routes. Handlers hand over to
// the policy service and the dry run.
import { principalOf, tenantOf, TENANT_SQL_NOTES, type ServerRoute } from 'agent-platform/sdk';
import { editor, member } from '../access.ts';
import * as s from './policies.schemas.ts';
import type { DryRunInput } from '../services/dry-run.ts';
import type { PolicyInput, PolicyService } from '../services/policies.ts';

const tags = ['api', 'identity'];
/** A dry run's body may carry up to IDENTITY_DRY_RUN_MAX_RECORDS records: larger than the platform's 1 MiB default. */
const DRY_RUN_MAX_BODY_BYTES = 8 * 1024 * 1024;
type Params = { policy_id: string; version: number };
const p = (params: unknown) => params as Params;

export function policyRoutes(policies: PolicyService, dryRun: (tenantId: string, id: string, input: DryRunInput) => Promise<unknown>): ServerRoute[] {
  return [
    {
      method: 'GET', path: '/api/v1/identity-policies',
      options: { auth: 'bearer', tags, description: 'List the tenant\'s identity policies (current versions)', plugins: { platform: member }, validate: { query: s.pageQuery }, response: { schema: s.policyList } },
      handler: (request) => policies.list(tenantOf(request), request.query as never),
    },
    {
      method: 'POST', path: '/api/v1/identity-policies',
      options: { auth: 'bearer', tags, description: 'Create an identity policy (version 1): rules, blocking keys', plugins: { platform: editor }, validate: { payload: s.policyInput }, response: { schema: s.policy } },
      handler: async (request, h) => h.response(await policies.create(tenantOf(request), principalOf(request).sub, request.payload as PolicyInput)).code(201),
    },
    {
      method: 'GET', path: '/api/v1/identity-policies/{policy_id}',
      options: { auth: 'bearer', tags, description: 'An identity policy with its current version', plugins: { platform: member }, validate: { params: s.policyParams }, response: { schema: s.policy } },
      handler: (request) => policies.get(tenantOf(request), p(request.params).policy_id),
    },
    {
      method: 'PUT', path: '/api/v1/identity-policies/{policy_id}',
      options: {
        auth: 'bearer', tags, description: 'Replace an identity policy: a changed matching spec makes a new immutable version; name and description change in place',
        plugins: { platform: editor }, validate: { params: s.policyParams, payload: s.policyInput }, response: { schema: s.policy },
      },
      handler: (request) => policies.replace(tenantOf(request), p(request.params).policy_id, principalOf(request).sub, request.payload as PolicyInput),
    },
    {
      method: 'DELETE', path: '/api/v1/identity-policies/{policy_id}',
      options: { auth: 'bearer', tags, description: 'Delete an identity policy (its versions are kept; its name is free again)', plugins: { platform: editor }, validate: { params: s.policyParams } },
      handler: async (request, h) => {
        await policies.remove(tenantOf(request), p(request.params).policy_id);
        return h.response().code(204);
      },
    },
    {
      method: 'GET', path: '/api/v1/identity-policies/{policy_id}/versions',
      options: { auth: 'bearer', tags, description: 'The policy\'s immutable versions, oldest first', plugins: { platform: member }, validate: { params: s.policyParams }, response: { schema: s.versionList } },
      handler: (request) => policies.versions(tenantOf(request), p(request.params).policy_id),
    },
    {
      method: 'GET', path: '/api/v1/identity-policies/{policy_id}/versions/{version}',
      options: { auth: 'bearer', tags, description: 'One immutable version of a policy', plugins: { platform: member }, validate: { params: s.versionParams }, response: { schema: s.policyVersion } },
      handler: (request) => policies.version(tenantOf(request), p(request.params).policy_id, p(request.params).version),
    },
    {
      method: 'POST', path: '/api/v1/identity-policies/{policy_id}/clone',
      options: {
        auth: 'bearer', tags, description: 'A new policy (version 1) with the spec of this one\'s current version, or of the given version',
        plugins: { platform: editor }, validate: { params: s.policyParams, payload: s.cloneInput }, response: { schema: s.policy },
      },
      handler: async (request, h) =>
        h.response(await policies.clone(tenantOf(request), p(request.params).policy_id, principalOf(request).sub, request.payload as never)).code(201),
    },
    {
      method: 'POST', path: '/api/v1/identity-policies/{policy_id}/dry-run',
      options: {
        auth: 'bearer', tags, description: 'The merges the policy would make on a sample (records, or a readable dataset), with the rule that matched each pair; stores nothing',
        notes: `The matching's budget is the smaller of IDENTITY_MATCH_TIMEOUT_SECONDS and the interactive one. ${TENANT_SQL_NOTES}`,
        plugins: { platform: member }, validate: { params: s.policyParams, payload: s.dryRunInput }, response: { schema: s.dryRunResult },
        payload: { maxBytes: DRY_RUN_MAX_BODY_BYTES, allow: ['application/json'] },
      },
      handler: (request) => dryRun(tenantOf(request), p(request.params).policy_id, request.payload as DryRunInput),
    },
  ];
}
