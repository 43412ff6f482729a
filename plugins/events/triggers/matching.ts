// How a trigger reads an event: its type pattern and filter decide whether it
// matches, its input_mapping and dedup_key templates resolve against
// `{event: <CloudEvent>}`. Pure; the engine's shared helpers do the work.
import {
  domainError, evaluateFilter, matchesFilter, matchesTypePattern, resolveTemplates, TemplateTooLongError, type EventFilter, type KeyResult,
} from 'agent-platform/sdk';
import type { CloudEvent } from '../stream/cloudevent.ts';
import type { TriggerRow } from '../store/tables.ts';

/** The pattern and filter a trigger applies to stream events (a deadman's are its watch). */
export function watchOf(trigger: Pick<TriggerRow, 'kind' | 'event_type' | 'event_filter' | 'deadman_config'>): {
  pattern: string;
  filter: EventFilter | null;
} {
  if (trigger.kind === 'deadman' && trigger.deadman_config) {
    return { pattern: trigger.deadman_config.watch_event_type, filter: trigger.deadman_config.watch_filter ?? null };
  }
  return { pattern: trigger.event_type, filter: trigger.event_filter };
}

export function matches(pattern: string, filter: EventFilter | null, event: CloudEvent): boolean {
  return matchesTypePattern(pattern, event.type) && (!filter || matchesFilter(filter, event));
}

/** The dry run's explanation: the type check and, per filter key, what was found and why it matched or not. */
export function explain(pattern: string, filter: EventFilter | null, event: CloudEvent) {
  const typeMatched = matchesTypePattern(pattern, event.type);
  const filterResult: { matched: boolean; keys: Record<string, KeyResult> } = filter ? evaluateFilter(filter, event) : { matched: true, keys: {} };
  return { matched: typeMatched && filterResult.matched, type_matched: typeMatched, filter_result: filterResult };
}

/** The workflow inputs: the mapping resolved against the event; without a mapping, `{event}`. */
export function mapInputs(mapping: Record<string, unknown> | null, event: CloudEvent): Record<string, unknown> {
  if (!mapping) return { event };
  return resolved(mapping, event) as Record<string, unknown>;
}

/** Templates resolved against the event; one over the length limit (stored before it) is a 422, not evaluated. */
function resolved(template: unknown, event: CloudEvent): unknown {
  try {
    return resolveTemplates(template, { event });
  } catch (err) {
    if (err instanceof TemplateTooLongError) throw domainError(422, `trigger template refused: ${err.message}`, 'TEMPLATE_TOO_LONG');
    throw err;
  }
}

/** The resolved dedup key, or null when the trigger has none or it resolves to nothing. */
export function dedupKeyOf(template: string | null, event: CloudEvent): string | null {
  if (!template) return null;
  const key = resolved(template, event);
  if (key === null || key === undefined || key === '') return null;
  return typeof key === 'string' ? key : JSON.stringify(key);
}
