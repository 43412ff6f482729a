// The pino mixin of a traced platform: a log line written inside a span
// carries its `trace_id` and `span_id`.
import { trace } from '@opentelemetry/api';

// pino merges the line's fields into the object returned: a new one each time.
export function traceIdsMixin(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
