// REST routes of document sync sources (their status, errors and retry are in status.ts).
import type { ServerRoute } from '@hapi/hapi';
import { tenantOf } from 'agent-platform/sdk';
import type { SyncService, SyncSourceInput } from '../services/sync.ts';
import * as s from '../schemas.ts';

const admin = { tenant: 'required', role: 'admin' } as const;
const tags = ['api', 'ingestion'];

export function syncRoutes(sync: SyncService): ServerRoute[] {
  return [
    {
      method: 'POST', path: '/api/admin/document-sync/sources',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin },
        description: 'Create a sync source: a directory relative to the tenant\'s folder <root>/<tenant_id>/ of INGESTION_SYNC_ROOTS (with a glob pattern) or a list of URLs, synced on a cron schedule',
        validate: { payload: s.syncSourceCreate },
      },
      handler: async (request, h) => h.response(await sync.create(tenantOf(request), request.payload as SyncSourceInput)).code(201),
    },
    {
      method: 'GET', path: '/api/admin/document-sync/sources',
      options: { auth: 'bearer', tags, plugins: { platform: admin }, description: 'List sync sources', validate: { query: s.sourceErrorsQuery } },
      handler: (request) => {
        const q = request.query as { skip: number; limit: number };
        return sync.list(tenantOf(request), q.skip, q.limit);
      },
    },
    {
      method: 'GET', path: '/api/admin/document-sync/sources/{source_id}',
      options: { auth: 'bearer', tags, plugins: { platform: admin }, description: 'One sync source with its last sync', validate: { params: s.sourceIdParams } },
      handler: (request) => sync.get(tenantOf(request), Number(request.params.source_id)),
    },
    {
      method: 'PATCH', path: '/api/admin/document-sync/sources/{source_id}',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'Change a sync source (schedule, pattern, URLs, active)',
        validate: { params: s.sourceIdParams, payload: s.syncSourceUpdate },
      },
      handler: (request) => sync.update(tenantOf(request), Number(request.params.source_id), request.payload as Partial<SyncSourceInput>),
    },
    {
      method: 'DELETE', path: '/api/admin/document-sync/sources/{source_id}',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'Delete a sync source (its documents stay)',
        validate: { params: s.sourceIdParams },
      },
      handler: async (request, h) => {
        await sync.remove(tenantOf(request), Number(request.params.source_id));
        return h.response().code(204);
      },
    },
    {
      method: 'POST', path: '/api/admin/document-sync/sources/{source_id}/sync',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'Sync a source now (202; runs in the background)',
        validate: { params: s.sourceIdParams },
      },
      handler: async (request, h) => h.response(await sync.requestSync(tenantOf(request), Number(request.params.source_id))).code(202),
    },
  ];
}
