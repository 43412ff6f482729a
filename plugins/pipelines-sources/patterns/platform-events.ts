// The `platform_events` pattern: the tenant's own event stream (the events
// plugin, read through its api in sequence order). One stream, `events`, with
// a fixed schema; incremental syncs continue from the last sequence number
// (the natural cursor: gap-free and ordered). No connection, no credentials.
import { badRequest } from 'agent-platform/sdk';
import type { EventsApi } from '../../events/api.ts';
import type { JsonSchemaObject, SourcePattern } from './types.ts';

const PAGE = 1000;

const configSchema: JsonSchemaObject = {
  type: 'object',
  additionalProperties: false,
  properties: {
    event_type: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,200}\\*?$', description: 'Only this type, or a prefix ending in *' },
    stream_name: { type: 'string', pattern: '^[A-Za-z0-9_]{1,63}$', default: 'events' },
  },
};

const eventSchema: JsonSchemaObject = {
  type: 'object',
  properties: {
    seq: { type: 'integer' },
    id: { type: 'string' },
    type: { type: 'string' },
    source: { type: 'string' },
    time: { type: 'string', format: 'date-time' },
    data: { type: ['null', 'object', 'array'] },
  },
};

export function platformEventsPattern(events: () => EventsApi | undefined): SourcePattern {
  const api = () => {
    const found = events();
    if (!found) throw badRequest('The events plugin is not part of this deployment', 'PATTERN_UNAVAILABLE');
    return found;
  };
  return {
    id: 'platform_events',
    name: 'Platform events',
    description: 'The tenant\'s own event stream, in order (incremental by sequence number)',
    configSchema,
    async discover(context) {
      api();
      const name = (context.config.stream_name as string | undefined) ?? 'events';
      return [{ name, namespace: null, schema: eventSchema, supported_sync_modes: ['full_refresh', 'incremental'], source_defined_primary_key: ['seq'] }];
    },
    async read(context, stream) {
      const type = context.config.event_type as string | undefined;
      const incremental = stream.syncMode === 'incremental' && stream.cursorField === 'seq' && stream.cursor !== null;
      let after = incremental ? Number(stream.cursor) - (stream.inclusiveCursor ? 1 : 0) : 0;
      async function* batches() {
        for (;;) {
          const page = await api().after(context.tenantId, after, PAGE, type);
          if (page.length === 0) return;
          yield page.map((event) => ({ seq: event.seq, id: event.id, type: event.type, source: event.source, time: event.time, data: event.data ?? null }));
          after = page[page.length - 1]!.seq;
          if (page.length < PAGE || context.signal.aborted) return;
        }
      }
      return { source: { kind: 'records', batches: batches() }, uniqueKeys: stream.primaryKey.length === 1 && stream.primaryKey[0] === 'seq', close: async () => {} };
    },
  };
}
