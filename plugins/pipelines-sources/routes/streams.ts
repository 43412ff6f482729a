// The stream routes: a source's streams, edited one by
// one or in bulk, and refresh-schema.
import type { ServerRoute } from '@hapi/hapi';
import { tenantOf } from 'agent-platform/sdk';
import { editor, member } from '../access.ts';
import type { DiscoveredStream } from '../patterns/types.ts';
import * as s from '../schemas.ts';
import type { StreamInput, StreamPatch, StreamService } from '../services/streams.ts';

const tags = ['api', 'sources'];
type StreamParams = { source_id: string; stream_id: string };

export function streamRoutes(streams: StreamService): ServerRoute[] {
  return [
    {
      method: 'GET', path: '/api/v1/sources/{source_id}/streams',
      options: {
        auth: 'bearer', tags, description: 'The source\'s streams with their settings and runtime state',
        plugins: { platform: member }, validate: { params: s.sourceParams }, response: { schema: s.streamList },
      },
      handler: (request) => streams.list(tenantOf(request), (request.params as StreamParams).source_id),
    },
    {
      method: 'POST', path: '/api/v1/sources/{source_id}/streams',
      options: {
        auth: 'bearer', tags, description: 'Add a stream (defaults: full_refresh, overwrite, landing in raw.<tenant>.<source>_<stream>)',
        plugins: { platform: editor }, validate: { params: s.sourceParams, payload: s.streamCreate }, response: { schema: s.stream },
      },
      handler: async (request, h) => h.response(await streams.create(tenantOf(request), (request.params as StreamParams).source_id, request.payload as StreamInput)).code(201),
    },
    {
      method: 'PATCH', path: '/api/v1/sources/{source_id}/streams/{stream_id}',
      options: {
        auth: 'bearer', tags, description: 'Change a stream\'s sync mode, write mode, cursor, key, enabled flag or destination',
        plugins: { platform: editor }, validate: { params: s.streamParams, payload: s.streamPatch }, response: { schema: s.stream },
      },
      handler: (request) => {
        const params = request.params as StreamParams;
        return streams.update(tenantOf(request), params.source_id, params.stream_id, request.payload as StreamPatch);
      },
    },
    {
      method: 'DELETE', path: '/api/v1/sources/{source_id}/streams/{stream_id}',
      options: {
        auth: 'bearer', tags, description: 'Remove a stream (its dataset stays in the lake)',
        plugins: { platform: editor }, validate: { params: s.streamParams },
      },
      handler: async (request, h) => {
        const params = request.params as StreamParams;
        await streams.remove(tenantOf(request), params.source_id, params.stream_id);
        return h.response().code(204);
      },
    },
    {
      method: 'POST', path: '/api/v1/sources/{source_id}/streams/bulk',
      options: {
        auth: 'bearer', tags, description: 'Change several streams at once: all apply or none does',
        plugins: { platform: editor }, validate: { params: s.sourceParams, payload: s.streamsBulk }, response: { schema: s.streamList },
      },
      handler: (request) => streams.bulk(tenantOf(request), (request.params as StreamParams).source_id, (request.payload as { streams: never[] }).streams),
    },
    {
      method: 'POST', path: '/api/v1/sources/{source_id}/streams/refresh-schema',
      options: {
        auth: 'bearer', tags,
        description: 'Apply a complete discovery snapshot: matched streams get only the new schema and supported_sync_modes; new names are created with defaults; names absent from a non-empty snapshot are removed',
        plugins: { platform: editor }, validate: { params: s.sourceParams, payload: s.refreshSchema }, response: { schema: s.refreshResult },
      },
      handler: (request) => streams.refreshSchema(tenantOf(request), (request.params as StreamParams).source_id, (request.payload as { streams: DiscoveredStream[] }).streams),
    },
  ];
}
