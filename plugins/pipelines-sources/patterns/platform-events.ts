// The `platform_events` pattern: the tenant's own event stream (the events
// plugin, read through its api in stream order). One stream, `events`, with
// a fixed schema; incremental syncs continue after the last event read: cursor
// field `position` (text that sorts in stream order: nothing is missed), or
// `seq` (the event's number; events numbered lower that commit later are
// missed, as numbers are not the stream's order). No connection, no credentials.
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
    position: { type: 'string' },
    id: { type: 'string' },
    type: { type: 'string' },
    source: { type: 'string' },
    time: { type: 'string', format: 'date-time' },
    data: { type: ['null', 'object', 'array'] },
  },
};

/** Where an incremental sync goes on: after the cursor, or from it (inclusive). */
function resumeFrom(field: string, cursor: string, inclusive: boolean): string | number {
  if (field === 'seq') return Number(cursor) - (inclusive ? 1 : 0);
  if (!inclusive) return cursor;
  // The position just before the cursor's event: its number less one, in its transaction.
  const [xid, seq] = cursor.split('-');
  return `${xid}-${String(Number(seq) - 1).padStart(seq.length, '0')}`;
}

export function platformEventsPattern(events: () => EventsApi | undefined): SourcePattern {
  const api = () => {
    const found = events();
    if (!found) throw badRequest('The events plugin is not part of this deployment', 'PATTERN_UNAVAILABLE');
    return found;
  };
  return {
    id: 'platform_events',
    name: 'Platform events',
    description: 'The tenant\'s own event stream, in order (incremental by position)',
    configSchema,
    async discover(context) {
      api();
      const name = (context.config.stream_name as string | undefined) ?? 'events';
      return [{ name, namespace: null, schema: eventSchema, supported_sync_modes: ['full_refresh', 'incremental'], source_defined_primary_key: ['seq'] }];
    },
    async read(context, stream) {
      const type = context.config.event_type as string | undefined;
      const incremental = stream.syncMode === 'incremental' && (stream.cursorField === 'seq' || stream.cursorField === 'position') && stream.cursor !== null;
      let after: string | number = incremental ? resumeFrom(stream.cursorField!, stream.cursor!, stream.inclusiveCursor) : 0;
      async function* batches() {
        for (;;) {
          const page = await api().after(context.tenantId, after, PAGE, type);
          if (page.length === 0) return;
          yield page.map((event) => ({ seq: event.seq, position: event.position, id: event.id, type: event.type, source: event.source, time: event.time, data: event.data ?? null }));
          after = page[page.length - 1]!.position;
          if (page.length < PAGE || context.signal.aborted) return;
        }
      }
      return { source: { kind: 'records', batches: batches() }, uniqueKeys: stream.primaryKey.length === 1 && stream.primaryKey[0] === 'seq', close: async () => {} };
    },
  };
}
