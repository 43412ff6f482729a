// The durable event backend behind core.events.emit. It runs inside the
// caller's transaction: the event, its sequence number and (when no dispatcher
// is queued for the tenant) the dispatcher job exist only if the cause commits.
//
// An append is one INSERT that locks nothing other emitters wait for (see
// stream/position.ts). Once the transaction has committed, the tenant's
// dispatcher is woken (dispatch/waker.ts); in a transaction withTenant did
// not open (a savepoint), the dispatcher job is enqueued in the transaction
// instead. A long transaction holds back what readers may read (the
// visibility horizon): emit in short ones. While tracing is on, an emit is a
// span `event.emit`, kept with the event: its dispatch continues that trace.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { activeTraceparent, afterCommit, badRequest, type EmitOptions, type EventInput, inSpan, isValidEventType, type JobsApi, SpanKind, type TenantTransaction, tracing } from 'agent-platform/sdk';
import { chainDepthOf } from '../dispatch/chain.ts';
import { isUriReference, toCloudEvent, type CloudEvent } from './cloudevent.ts';
import { eventsStore } from '../store/events.ts';
import type { TypeRegistry } from './type-registry.ts';
import { enqueueDispatch } from '../dispatch/jobs.ts';

export interface EmitDeps {
  jobs: Pick<JobsApi, 'enqueue'>;
  /** Wakes the tenant's dispatcher after the commit. */
  wake(tenantId: string): void;
  registry: TypeRegistry;
  logger?: Pick<Logger, 'warn'>;
}

export interface EmittedEvent {
  seq: number;
  event: CloudEvent;
  /** Advice about the type or its schema; emission went ahead regardless. */
  warnings: string[];
}

const MAX_DATA_BYTES = 256 * 1024;

function checked(input: EventInput): { id: string; type: string; source: string; time: Date; data: Record<string, unknown> } {
  if (typeof input.type !== 'string' || !isValidEventType(input.type)) {
    throw badRequest(`type: "${input.type}" is not an event type (letters, digits, _ and - separated by dots)`, 'VALIDATION_FAILED');
  }
  if (typeof input.source !== 'string' || input.source.length > 500 || !isUriReference(input.source)) {
    throw badRequest('source: must be a non-empty URI reference of at most 500 characters', 'VALIDATION_FAILED');
  }
  const data = input.data ?? {};
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw badRequest('data: must be an object', 'VALIDATION_FAILED');
  if (JSON.stringify(data).length > MAX_DATA_BYTES) throw badRequest(`data: larger than ${MAX_DATA_BYTES} bytes`, 'VALIDATION_FAILED');
  const id = input.id ?? randomUUID();
  if (typeof id !== 'string' || id.length === 0 || id.length > 200) throw badRequest('id: must be 1 to 200 characters', 'VALIDATION_FAILED');
  const time = input.time === undefined ? new Date() : new Date(input.time);
  if (Number.isNaN(time.getTime())) throw badRequest('time: must be an ISO 8601 timestamp', 'VALIDATION_FAILED');
  return { id, type: input.type, source: input.source, time, data };
}

export function emitEvent(deps: EmitDeps, trx: TenantTransaction, tenantId: string, input: EventInput, options?: EmitOptions): Promise<EmittedEvent> {
  if (!tracing()) return appendEvent(deps, trx, tenantId, input, options);
  return inSpan('event.emit', { kind: SpanKind.PRODUCER, attributes: { 'event.type': String(input.type), 'tenant.id': tenantId } }, () => appendEvent(deps, trx, tenantId, input, options));
}

async function appendEvent(deps: EmitDeps, trx: TenantTransaction, tenantId: string, input: EventInput, options?: EmitOptions): Promise<EmittedEvent> {
  const values = { ...checked(input), chaindepth: await chainDepthOf(trx, input), traceparent: activeTraceparent() ?? null };
  const warnings = await deps.registry.warnings(trx, tenantId, values.type, values.data);
  const { seq, xid } = await eventsStore.append(trx, { tenant_id: tenantId, ...values }, options?.alongside);
  const row = { tenant_id: tenantId, seq, xid, ...values };
  if (!afterCommit(trx, () => deps.wake(tenantId))) await enqueueDispatch(deps.jobs, tenantId, { trx });
  if (warnings.length > 0) deps.logger?.warn({ tenantId, type: values.type, eventId: values.id, warnings }, 'event emitted with warnings');
  return { seq, event: toCloudEvent(row), warnings };
}
