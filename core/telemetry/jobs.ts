// A job carries the trace it was enqueued in: the W3C trace context of the
// enqueuing span goes into its payload under TRACE_KEY, and its run is a span
// of that trace (an event's emit, its dispatch job and the workflow steps that
// dispatch starts are one trace). The key is taken off the payload before the
// task's handler sees it. Without tracing, payloads are left as they are.
import { context, propagation, ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import { inSpan, SpanKind, tracing } from './tracing.ts';

export const TRACE_KEY = '_trace';

type Payload = Record<string, unknown>;

/**
 * The payload with the active trace context added (the same object without
 * tracing, with no active span, or when it carries one already: a job
 * prepared inside another span keeps that span's trace).
 */
export function withTraceContext<P extends Payload>(payload: P): P {
  if (!tracing() || TRACE_KEY in payload) return payload;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? { ...payload, [TRACE_KEY]: carrier } : payload;
}

/** The active span's W3C traceparent (undefined without tracing or an active span): to store with what a later consumer continues. */
export function activeTraceparent(): string | undefined {
  if (!tracing()) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** The context of a stored traceparent, as a span's parent (see activeTraceparent). */
export const traceparentContext = (traceparent: string): Context => propagation.extract(ROOT_CONTEXT, { traceparent });

/** The payload without its trace context, and the context (root when it carries none). */
export function takeTraceContext<P>(payload: P): { payload: P; parent: Context } {
  if (payload === null || typeof payload !== 'object' || !(TRACE_KEY in payload)) return { payload, parent: ROOT_CONTEXT };
  const { [TRACE_KEY]: carrier, ...rest } = payload as Payload;
  const parent = carrier && typeof carrier === 'object' ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
  return { payload: rest as P, parent };
}

/**
 * Runs a job's handler in a span `job <task>`, child of the trace its payload
 * carries. The carried context is taken off the payload even with tracing off
 * (a job enqueued while it was on).
 */
export function runTracedJob<P, R>(task: string, queue: 'fast' | 'long', payload: P, attempt: number, handler: (payload: P) => Promise<R>): Promise<R> {
  const taken = takeTraceContext(payload);
  if (!tracing()) return handler(taken.payload);
  return inSpan(`job ${task}`, {
    kind: SpanKind.CONSUMER, parent: taken.parent,
    attributes: { 'job.task': task, 'job.queue': queue, 'job.attempt': attempt },
  }, () => handler(taken.payload));
}
