// How a trigger reads an event: its type pattern and filter decide whether it
// matches, its input_mapping and dedup_key templates resolve against
// `{event: <CloudEvent>}`. Pure; the engine's shared helpers do the work.
import { evaluateFilter, matchesFilter, matchesTypePattern, resolveTemplates, type EventFilter } from '../../workflows/engine/index.ts';
import type { KeyResult } from '../../workflows/engine/filters.ts';
import type { CloudEvent } from './cloudevent.ts';
import type { TriggerRow } from './tables.ts';

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
  return resolveTemplates(mapping, { event }) as Record<string, unknown>;
}

/** The resolved dedup key, or null when the trigger has none or it resolves to nothing. */
export function dedupKeyOf(template: string | null, event: CloudEvent): string | null {
  if (!template) return null;
  const resolved = resolveTemplates(template, { event });
  if (resolved === null || resolved === undefined || resolved === '') return null;
  return typeof resolved === 'string' ? resolved : JSON.stringify(resolved);
}
