// The `emit_event` platform function: emits an event on the tenant's stream
// (through the core's event hub, in a transaction of its own) and returns its id.
import { randomUUID } from 'node:crypto';
import type { EventHub } from '../../../core/events.ts';
import { badRequest } from '../../../core/errors.ts';
import type { FunctionDefinition } from '../../../core/functions/registry.ts';
import { isValidEventType } from '../../../workflows/engine/index.ts';
import { EVENT_SOURCE } from '../events.ts';


export function emitEventFunction(events: EventHub): FunctionDefinition {
  return {
    description: 'Emit an event {type, source?, data?} on the tenant\'s event stream; returns {event_id, type}.',
    parameters: {
      properties: {
        type: { type: 'string', minLength: 1, maxLength: 200 },
        source: { type: 'string', minLength: 1, maxLength: 500 },
        data: { type: 'object' },
      },
      required: ['type'],
      additionalProperties: false,
    },
    async handler(args, context) {
      if (!isValidEventType(args.type)) throw badRequest(`"${args.type}" is not an event type (letters, digits, _ - separated by dots)`, 'INVALID_ARGUMENTS');
      // The id is chosen here so the caller gets it whatever the backend returns.
      const id = randomUUID();
      await context.withTenant(context.tenantId, (trx) =>
        events.emit(trx, context.tenantId, {
          id, type: args.type, source: args.source ?? EVENT_SOURCE, data: args.data ?? {},
          // The execution is the event's cause: the events plugin carries the chain depth (EVENTS_MAX_CHAIN_DEPTH).
          ...(context.executionContext?.type === 'workflow_execution' ? { cause: { execution_id: context.executionContext.id } } : {}),
        }),
      );
      return { event_id: id, type: args.type };
    },
  };
}
