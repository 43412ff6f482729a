// REST routes of imports and specs: import-openapi (JSON or multipart
// upload), the list of specs, one spec, its re-sync, its deletion.
import type { ServerRoute } from '@hapi/hapi';
import { tenantOf } from 'agent-platform/sdk';
import type { CatalogService } from '../services/catalog.ts';
import type { ImportInput, ImportService } from '../services/import.ts';
import type { SyncService } from '../services/sync.ts';
import * as s from '../schemas.ts';

const admin = { tenant: 'required', role: 'admin' } as const;
const tags = ['api', 'integrations'];

export function specRoutes(imports: ImportService, sync: SyncService, catalog: CatalogService, maxSpecBytes: number): ServerRoute[] {
  return [
    {
      method: 'POST', path: '/api/admin/integrations/openapi/import',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin },
        description: 'import-openapi: preview (dry_run, the default) or perform the import of an OpenAPI 3.0/3.1 or Swagger 2.0 description from `source` (URL), `spec` (inline) or `file` (multipart upload)',
        notes: 'The preview lists every function with its parameters and their locations, the action against an existing import of the same name (create, update with changed_fields, unchanged, remove), skipped operations, warnings and name conflicts. 200 for a preview or a re-import, 201 for a new spec; 409 FUNCTION_NAME_CONFLICT.',
        payload: {
          maxBytes: maxSpecBytes + 64 * 1024,
          output: 'data',
          parse: true,
          multipart: { output: 'data' },
          allow: ['application/json', 'multipart/form-data'],
        },
        validate: { payload: s.importBody(maxSpecBytes) },
        response: { schema: s.importResult },
      },
      handler: async (request, h) => {
        const { created, result } = await imports.importSpec(tenantOf(request), request.payload as ImportInput);
        return h.response(result).code(created ? 201 : 200);
      },
    },
    {
      method: 'GET', path: '/api/admin/integrations/specs',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'specs: imported specs with content hash, status and function count',
        validate: { query: s.paging }, response: { schema: s.listOf(s.spec, 'IntegrationSpecList') },
      },
      handler: async (request) => {
        const { skip, limit } = request.query as { skip: number; limit: number };
        return { ...(await catalog.listSpecs(tenantOf(request), skip, limit)), skip, limit };
      },
    },
    {
      method: 'GET', path: '/api/admin/integrations/specs/{spec_id}',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'One imported spec',
        validate: { params: s.specIdParam }, response: { schema: s.spec },
      },
      handler: (request) => catalog.getSpec(tenantOf(request), request.params.spec_id as string),
    },
    {
      method: 'POST', path: '/api/admin/integrations/specs/{spec_id}/sync',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin },
        description: 'sync: re-read the spec; skipped when the content hash is unchanged unless force=true; new operations are added, changed ones updated, removed ones marked removed',
        notes: '502 SYNC_FAILED when the document cannot be read or parsed (the spec is then sync_failed; its functions are unchanged).',
        validate: { params: s.specIdParam, query: s.syncQuery }, response: { schema: s.syncResult },
      },
      handler: (request) => sync.sync(tenantOf(request), request.params.spec_id as string, (request.query as { force: boolean }).force),
    },
    {
      method: 'DELETE', path: '/api/admin/integrations/specs/{spec_id}',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'Delete a spec and its functions (definition.deleted for each)',
        validate: { params: s.specIdParam },
      },
      handler: async (request, h) => {
        await catalog.deleteSpec(tenantOf(request), request.params.spec_id as string);
        return h.response().code(204);
      },
    },
  ];
}
