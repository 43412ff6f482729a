// The schema registry routes: members read, search
// and validate; `admin` or `pipeline_editor` register.
import { principalOf, tenantOf, type ServerRoute } from 'agent-platform/sdk';
import { editor, member } from '../access.ts';
import * as s from './registry.schemas.ts';
import type { RegisterInput, RegistryService } from '../services/registry.ts';

const tags = ['api', 'schemas'];

export function registryRoutes(registry: RegistryService): ServerRoute[] {
  const post = (path: string, description: string, access: object, payload: object, response: object, handler: ServerRoute['handler']): ServerRoute =>
    ({ method: 'POST', path, options: { auth: 'bearer', tags, description, plugins: { platform: access }, validate: { payload }, response: { schema: response } }, handler });
  return [
    {
      method: 'GET', path: '/api/v1/schemas/registry',
      options: {
        auth: 'bearer', tags, description: 'The tenant\'s registered schemas (latest version of each subject)',
        plugins: { platform: member }, validate: { query: s.registryQuery }, response: { schema: s.registryList },
      },
      handler: (request) => {
        const { limit, offset, ...filter } = request.query as { limit: number; offset: number };
        return registry.list(tenantOf(request), filter, { limit, offset });
      },
    },
    post('/api/v1/schemas/registry/register', 'Register a schema: a new version of its subject, or nothing (200, created false) when equal to the latest', editor,
      s.registerBody, s.registryEntry, async (request, h) => {
        const entry = await registry.register(tenantOf(request), principalOf(request).sub, request.payload as RegisterInput);
        return h.response(entry).code(entry.created ? 201 : 200);
      }),
    post('/api/v1/schemas/registry/bulk-register', 'Register up to 100 schemas at once: all or nothing', editor, s.bulkRegisterBody, s.bulkResult,
      (request) => registry.bulkRegister(tenantOf(request), principalOf(request).sub, (request.payload as { schemas: RegisterInput[] }).schemas)),
    post('/api/v1/schemas/registry/discover-and-register', 'Infer a schema from a readable dataset\'s columns and keys, and register it', editor,
      s.discoverBody, s.registryEntry, async (request, h) => {
        const entry = await registry.discoverAndRegister(tenantOf(request), principalOf(request).sub, request.payload as never);
        return h.response(entry).code(entry.created ? 201 : 200);
      }),
    post('/api/v1/schemas/registry/sync-catalog', 'Copy the built-in libraries\' schemas into the registry (subject = full id); idempotent', editor,
      s.syncCatalogBody, s.syncCatalogResult, (request) => registry.syncCatalog(tenantOf(request), principalOf(request).sub, (request.payload as { library_id?: string } | null)?.library_id)),
    post('/api/v1/schemas/registry/search', 'Search registered schemas by subject (trigram similarity), description and property names', member,
      s.registrySearchBody, s.registrySearchResult, (request) => registry.search(tenantOf(request), request.payload as never)),
    post('/api/v1/schemas/registry/validate', 'Validate a payload against a registered schema: errors with JSON-pointer paths (a 200 either way)', member,
      s.registryValidateBody, s.registryValidation, (request) => registry.validate(tenantOf(request), request.payload as never)),
  ];
}
