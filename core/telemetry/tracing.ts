// The platform's spans, through the OpenTelemetry API only. While tracing is
// off (no endpoint, core/telemetry/settings.ts) `tracer` is undefined and
// every hook costs one check of it: callers test `tracing()` before building
// a span's name or attributes.
import { context, SpanKind, SpanStatusCode, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';

let tracer: Tracer | undefined;

/** Set by the SDK's start (sdk.ts), cleared at its shutdown. */
export function setTracer(value: Tracer | undefined): void {
  tracer = value;
}

/** Whether spans are recorded: the hooks do nothing else when not. */
export function tracing(): boolean {
  return tracer !== undefined;
}

/** The active tracer; only called after `tracing()` said yes. */
export function activeTracer(): Tracer {
  if (!tracer) throw new Error('tracing is off');
  return tracer;
}

export interface SpanSpec {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent (default: the active context). */
  parent?: Context;
}

/** A failed span: the error recorded, the status ERROR. */
export function failSpan(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/**
 * Runs `work` inside a new span (active for everything it awaits), ended when
 * it settles; a throw marks the span failed. Without tracing, `work` alone.
 */
export function inSpan<T>(name: string, spec: SpanSpec, work: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!tracer) return work(undefined);
  const parent = spec.parent ?? context.active();
  return tracer.startActiveSpan(name, { kind: spec.kind ?? SpanKind.INTERNAL, attributes: spec.attributes }, parent, async (span) => {
    try {
      return await work(span);
    } catch (err) {
      failSpan(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

export { SpanKind };
