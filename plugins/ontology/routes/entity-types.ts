// The ontology's entity-type routes: GET /ontology/status is public; every
// other route runs the authorization policy (authorization/policy.ts)
// (`caller` pre-handler) and hands over to the entity-type service.
import type { ServerRoute } from 'agent-platform/sdk';
import { callerOf, callerPre, editor, reader } from '../access.ts';
import type { OntologyPolicy } from '../authorization/policy.ts';
import * as s from '../schemas.ts';
import type { EntityTypeDefinition } from '../store/entity-types.ts';
import type { EntityTypeService } from '../services/entity-types.ts';

const tags = ['api', 'ontology'];
const codeOf = (params: unknown) => (params as { code: string }).code;

export function entityTypeRoutes(types: EntityTypeService, policy: OntologyPolicy): ServerRoute[] {
  const pre = [callerPre(policy)];
  return [
    {
      method: 'GET', path: '/api/v1/ontology/status',
      options: {
        auth: false, tags, description: 'Public: the ontology service is up; its sync contract version and whether tenant bindings are enforced',
        plugins: { platform: { tenant: 'none' } }, response: { schema: s.status },
      },
      handler: () => ({ status: 'ok', sync_contract_version: 2, platform_env: policy.enforced ? 'production' : 'development', tenant_bindings_enforced: policy.enforced }),
    },
    {
      method: 'GET', path: '/api/v1/ontology/entity-types',
      options: {
        auth: 'bearer', tags, description: 'List the tenant\'s entity types (their current versions), by code',
        plugins: { platform: reader }, pre, validate: { query: s.typeQuery }, response: { schema: s.entityTypeList },
      },
      handler: (request) => types.list(callerOf(request).tenantId, request.query as never),
    },
    {
      method: 'POST', path: '/api/v1/ontology/entity-types',
      options: {
        auth: 'bearer', tags, description: 'Declare an entity type (version 1; emits ontology.entity_type.changed)',
        plugins: { platform: editor }, pre, validate: { payload: s.entityTypeCreate }, response: { schema: s.entityType },
      },
      handler: async (request, h) => h.response(await types.create(callerOf(request), request.payload as never)).code(201),
    },
    {
      method: 'GET', path: '/api/v1/ontology/entity-types/{code}',
      options: {
        auth: 'bearer', tags, description: 'An entity type at its current version',
        plugins: { platform: reader }, pre, validate: { params: s.codeParams }, response: { schema: s.entityType },
      },
      handler: (request) => types.get(callerOf(request).tenantId, codeOf(request.params)),
    },
    {
      method: 'GET', path: '/api/v1/ontology/entity-types/{code}/versions',
      options: {
        auth: 'bearer', tags, description: 'Every version of an entity type, oldest first (versions are immutable)',
        plugins: { platform: reader }, pre, validate: { params: s.codeParams }, response: { schema: s.entityTypeVersions },
      },
      handler: (request) => types.versions(callerOf(request).tenantId, codeOf(request.params)),
    },
    {
      method: 'POST', path: '/api/v1/ontology/entity-types/{code}/versions',
      options: {
        auth: 'bearer', tags, description: 'Add a version: a whole new definition, which becomes current',
        plugins: { platform: editor }, pre, validate: { params: s.codeParams, payload: s.entityTypeVersion }, response: { schema: s.entityType },
      },
      handler: async (request, h) => h.response(await types.addVersion(callerOf(request), codeOf(request.params), request.payload as EntityTypeDefinition)).code(201),
    },
    {
      method: 'PATCH', path: '/api/v1/ontology/entity-types/{code}',
      options: {
        auth: 'bearer', tags, description: 'Change fields of the current definition: a new version when anything changes',
        plugins: { platform: editor }, pre, validate: { params: s.codeParams, payload: s.entityTypePatch }, response: { schema: s.entityType },
      },
      handler: (request) => types.patch(callerOf(request), codeOf(request.params), request.payload as Partial<EntityTypeDefinition>),
    },
    {
      method: 'DELETE', path: '/api/v1/ontology/entity-types/{code}',
      options: {
        auth: 'bearer', tags, description: 'Delete an entity type; 409 ENTITY_TYPE_IN_USE while backing datasets use it, unless allow_deprecate=true (then it is deprecated and kept)',
        plugins: { platform: editor }, pre, validate: { params: s.codeParams, query: s.deleteQuery },
      },
      handler: async (request, h) => {
        const { deprecated } = await types.remove(callerOf(request), codeOf(request.params), (request.query as { allow_deprecate: boolean }).allow_deprecate);
        return deprecated ? h.response({ code: codeOf(request.params), deprecated: true }).code(200) : h.response().code(204);
      },
    },
  ];
}
