// A span per SQL statement a kysely instance runs, from its log hook (called
// when the statement settles, in the caller's context): backdated to the
// statement's start, named by its verb, with the statement text (placeholders,
// never parameter values).
import { SpanKind, context } from '@opentelemetry/api';
import type { LogEvent } from 'kysely';
import { DB_OPERATION_NAME, DB_QUERY_TEXT, DB_SYSTEM_NAME, POSTGRESQL } from './attributes.ts';
import { activeTracer, failSpan, tracing } from './tracing.ts';

/** Longest statement text a span carries. */
const MAX_TEXT = 2000;

function verbOf(sql: string): string {
  return /^\s*([a-zA-Z]+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
}

export function traceStatement(event: LogEvent): void {
  if (!tracing()) return;
  const end = performance.timeOrigin + performance.now();
  const text = event.query.sql;
  const verb = verbOf(text);
  const span = activeTracer().startSpan(verb, {
    kind: SpanKind.CLIENT,
    startTime: end - event.queryDurationMillis,
    attributes: {
      [DB_SYSTEM_NAME]: POSTGRESQL,
      [DB_OPERATION_NAME]: verb,
      [DB_QUERY_TEXT]: text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text,
    },
  }, context.active());
  if (event.level === 'error') failSpan(span, event.error);
  span.end(end);
}
