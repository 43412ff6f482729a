// The `emit_event` platform function: emits an event on the tenant's stream
// (through the core's event hub, in a transaction of its own) and returns its id.
import { createHash, randomUUID } from 'node:crypto';
import { badRequest, type EventsApi, type FunctionDefinition, isValidEventType } from 'agent-platform/sdk';
import { EVENT_SOURCE } from '../execution/events.ts';

/**
 * A workflow step's event id: a UUID-shaped hash of the execution, the step
 * and its visit number, never of the attempt, so every retry of one visit
 * names the same event.
 */
function stepEventId(executionId: string, step: { id: string; seq: number }): string {
  const hex = createHash('sha256').update(`emit_event\0${executionId}\0${step.id}\0${step.seq}`).digest('hex');
  // Version 8 (custom) UUID layout: 8-4-4-4-12 with the version and variant bits set.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The events table's (tenant, source, id) uniqueness: this event was emitted already. */
function alreadyEmitted(err: unknown): boolean {
  const pgError = err as { code?: string; constraint?: string };
  return pgError.code === '23505' && pgError.constraint === 'events_tenant_id_source_id_key';
}

export function emitEventFunction(events: EventsApi): FunctionDefinition {
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
      // In a workflow step it is derived from the step's visit, so a retried step
      // (the emit committed, then the step failed) finds its event already there.
      const step = context.executionContext?.type === 'workflow_execution' ? context.executionContext.step : undefined;
      const id = step ? stepEventId(context.executionContext!.id, step) : randomUUID();
      try {
        await context.withTenant(context.tenantId, (trx) =>
          events.emit(trx, context.tenantId, {
            id, type: args.type, source: args.source ?? EVENT_SOURCE, data: args.data ?? {},
            // The execution is the event's cause: the events plugin carries the chain depth (EVENTS_MAX_CHAIN_DEPTH).
            ...(context.executionContext?.type === 'workflow_execution' ? { cause: { execution_id: context.executionContext.id } } : {}),
          }),
        );
      } catch (err) {
        // The whole emit rolled back (no sequence number taken): the first attempt's event stands.
        if (!(step && alreadyEmitted(err))) throw err;
      }
      return { event_id: id, type: args.type };
    },
  };
}
