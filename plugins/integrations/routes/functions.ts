// REST routes of imported functions: list (by source spec and status), one
// function, and editing its description. Calling goes through the core route
// POST /api/admin/functions/{name}/call.
import type { ServerRoute } from '@hapi/hapi';
import { tenantOf } from 'agent-platform/sdk';
import type { CatalogService } from '../services/catalog.ts';
import * as s from '../schemas.ts';

const admin = { tenant: 'required', role: 'admin' } as const;
const tags = ['api', 'integrations'];

export function functionRoutes(catalog: CatalogService): ServerRoute[] {
  return [
    {
      method: 'GET', path: '/api/admin/integrations/functions',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'Imported functions, by name; filter by source (spec name) and status',
        validate: { query: s.functionQuery }, response: { schema: s.listOf(s.importedFunction, 'ImportedFunctionList') },
      },
      handler: async (request) => {
        const { skip, limit, source, status } = request.query as { skip: number; limit: number; source?: string; status?: 'active' | 'removed' };
        return { ...(await catalog.listFunctions(tenantOf(request), { source, status }, skip, limit)), skip, limit };
      },
    },
    {
      method: 'GET', path: '/api/admin/integrations/functions/{name}',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'An imported function: parameters with locations, auth, status',
        validate: { params: s.functionNameParam }, response: { schema: s.importedFunction },
      },
      handler: (request) => catalog.getFunction(tenantOf(request), request.params.name as string),
    },
    {
      method: 'PATCH', path: '/api/admin/integrations/functions/{name}',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'Edit an imported function\'s description (kept across re-syncs)',
        validate: { params: s.functionNameParam, payload: s.editFunction }, response: { schema: s.importedFunction },
      },
      handler: (request) => catalog.editDescription(tenantOf(request), request.params.name as string, (request.payload as { description: string }).description),
    },
  ];
}
