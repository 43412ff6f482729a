// REST routes of collections.
import type { ServerRoute } from '@hapi/hapi';
import { tenantOf } from 'agent-platform/sdk';
import type { CollectionInput, CollectionsService } from '../services/collections.ts';
import * as s from '../schemas.ts';

const admin = { tenant: 'required', role: 'admin' } as const;
const member = { tenant: 'required' } as const;
const tags = ['api', 'ingestion'];

export function collectionRoutes(collections: CollectionsService): ServerRoute[] {
  return [
    {
      method: 'POST', path: '/api/admin/collections',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'Create a collection (optionally under a parent collection)',
        validate: { payload: s.createCollection }, response: { schema: s.collection },
      },
      handler: async (request, h) => h.response(await collections.create(tenantOf(request), request.payload as CollectionInput)).code(201),
    },
    {
      method: 'GET', path: '/api/admin/collections',
      options: {
        auth: 'bearer', tags, plugins: { platform: member }, description: 'List collections (all, or the children of parent_id; `root` for top-level)',
        validate: { query: s.collectionListQuery }, response: { schema: s.listOf(s.collection, 'CollectionList') },
      },
      handler: (request) => {
        const { skip, limit, parent_id } = request.query as { skip: number; limit: number; parent_id?: number | 'root' };
        return collections.list(tenantOf(request), { parentId: parent_id === 'root' ? null : parent_id }, skip, limit);
      },
    },
    {
      method: 'GET', path: '/api/admin/collections/{collection_id}',
      options: {
        auth: 'bearer', tags, plugins: { platform: member }, description: 'One collection with its document count',
        validate: { params: s.collectionIdParams }, response: { schema: s.collection },
      },
      handler: (request) => collections.get(tenantOf(request), Number(request.params.collection_id)),
    },
    {
      method: 'PATCH', path: '/api/admin/collections/{collection_id}',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'Rename, describe or move a collection',
        validate: { params: s.collectionIdParams, payload: s.updateCollection }, response: { schema: s.collection },
      },
      handler: (request) => collections.update(tenantOf(request), Number(request.params.collection_id), request.payload as Partial<CollectionInput>),
    },
    {
      method: 'DELETE', path: '/api/admin/collections/{collection_id}',
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'Delete an empty collection (409 while it has documents, sub-collections or sync sources)',
        validate: { params: s.collectionIdParams },
      },
      handler: async (request, h) => {
        await collections.remove(tenantOf(request), Number(request.params.collection_id));
        return h.response().code(204);
      },
    },
  ];
}
