// The source routes: CRUD of sources. Handlers hand
// over to the source service.
import type { ServerRoute } from '@hapi/hapi';
import { principalOf, tenantOf } from 'agent-platform/sdk';
import { editor, member } from '../access.ts';
import * as s from '../schemas.ts';
import type { SourceInput, SourceService } from '../services/sources.ts';

const tags = ['api', 'sources'];
const sourceIdOf = (params: unknown) => (params as { source_id: string }).source_id;

export function sourceRoutes(sources: SourceService): ServerRoute[] {
  return [
    {
      method: 'GET', path: '/api/v1/sources',
      options: {
        auth: 'bearer', tags, description: 'List the tenant\'s sources (credential values never included)',
        plugins: { platform: member }, validate: { query: s.pageQuery }, response: { schema: s.sourceList },
      },
      handler: (request) => sources.list(tenantOf(request), request.query as never),
    },
    {
      method: 'POST', path: '/api/v1/sources',
      options: {
        auth: 'bearer', tags, description: 'Create a source from a pattern: source_config, and credential_values with credential_name or a credential_ref (vault mode), or credential_values merged in (legacy_inline)',
        plugins: { platform: editor }, validate: { payload: s.sourceCreate }, response: { schema: s.source },
      },
      handler: async (request, h) => {
        const created = await sources.create(tenantOf(request), principalOf(request), request.payload as SourceInput & { name: string; pattern_id: string });
        return h.response(created).code(201);
      },
    },
    {
      method: 'GET', path: '/api/v1/sources/{source_id}',
      options: {
        auth: 'bearer', tags, description: 'A source: configuration without credentials, which credential fields are set, its state',
        plugins: { platform: member }, validate: { params: s.sourceParams }, response: { schema: s.source },
      },
      handler: (request) => sources.get(tenantOf(request), sourceIdOf(request.params)),
    },
    {
      method: 'PATCH', path: '/api/v1/sources/{source_id}',
      options: {
        auth: 'bearer', tags, description: 'Update a source; stored credential values are kept unless new ones are given',
        plugins: { platform: editor }, validate: { params: s.sourceParams, payload: s.sourcePatch }, response: { schema: s.source },
      },
      handler: (request) => sources.update(tenantOf(request), sourceIdOf(request.params), request.payload as SourceInput, principalOf(request)),
    },
    {
      method: 'DELETE', path: '/api/v1/sources/{source_id}',
      options: {
        auth: 'bearer', tags, description: 'Delete a source and its streams (its credential stays in the store; its datasets stay in the lake)',
        plugins: { platform: editor }, validate: { params: s.sourceParams },
      },
      handler: async (request, h) => {
        await sources.remove(tenantOf(request), sourceIdOf(request.params));
        return h.response().code(204);
      },
    },
  ];
}
