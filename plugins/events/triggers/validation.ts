// Turns a trigger as written (REST body, CLI JSON, update merged over the
// stored one) into its stored definition, or a 400 that names each field at
// fault: shape by the joi schema, meaning by the engine's validators (filters,
// type patterns, templates) and the cron and time zone checks.
import type Joi from 'joi';
import { badRequest, isValidTypePattern, validateFilter, validateTemplates } from 'agent-platform/sdk';
import { DEADMAN_FIRED, SCHEDULE_FIRED } from '../event-types.ts';
import { canonicalTimeZone, cronProblem } from './schedule.ts';
import type { TriggerDefinition } from '../store/triggers.ts';
import type { DeadmanConfig, ScheduleConfig, TriggerKind } from '../store/tables.ts';

export interface Problem {
  field: string;
  message: string;
}

/** A 400 like the routes' joi failures: the messages, and `fields` naming each. */
export function invalid(problems: Problem[]) {
  const error = badRequest(problems.map((p) => `${p.field}: ${p.message}`).join('; '), 'VALIDATION_FAILED');
  (error.output.payload as Record<string, unknown>).fields = problems.map((p) => p.field);
  return error;
}

/** Validates with a joi schema, throwing the same 400 as a route would. */
export function shaped<T>(schema: Joi.Schema, value: unknown): T {
  const { value: result, error } = schema.validate(value, { abortEarly: false });
  if (error) throw invalid(error.details.map((d) => ({ field: d.path.join('.') || 'body', message: d.message })));
  return result as T;
}

/** Paths an input_mapping or dedup_key template may use (core-platform 4.4). */
const EVENT_FIELDS = new Set(['event.type', 'event.source', 'event.id', 'event.time', 'event.tenantid', 'event.data']);
export const isTriggerTemplatePath = (path: string) => EVENT_FIELDS.has(path) || path.startsWith('event.data.');

/** Names that would be shadowed by the routes under /api/admin/triggers/events/. */
const RESERVED_NAMES = new Set(['events']);

export interface TriggerDraft {
  name: string;
  event_type?: string;
  event_filter?: Record<string, unknown> | null;
  target_type?: 'workflow';
  target_name: string;
  input_mapping?: Record<string, unknown> | null;
  active?: boolean;
  dedup_key?: string | null;
  dedup_window_seconds?: number;
  ignore_own_results?: boolean;
  schedule_config?: Partial<ScheduleConfig> | null;
  deadman_config?: Partial<DeadmanConfig> | null;
}

function checkPattern(problems: Problem[], field: string, value: string | null | undefined) {
  if (value && !isValidTypePattern(value)) {
    problems.push({ field, message: `"${value}" is not an event type or a pattern ending in * (letters, digits, _ and - separated by dots)` });
  }
}

function checkFilter(problems: Problem[], field: string, value: unknown) {
  if (value === null || value === undefined) return;
  for (const message of validateFilter(value)) problems.push({ field, message });
}

function checkTemplates(problems: Problem[], field: string, value: unknown) {
  if (value === null || value === undefined) return;
  for (const message of validateTemplates(value, isTriggerTemplatePath)) {
    problems.push({ field, message: `${message} (templates may use event.type, event.source, event.id, event.time, event.tenantid, event.data.*)` });
  }
}

function scheduleOf(problems: Problem[], config: Partial<ScheduleConfig>): ScheduleConfig {
  const cron = (config.cron ?? '').trim().replace(/\s+/g, ' ');
  const cronIssue = cronProblem(cron);
  if (cronIssue) problems.push({ field: 'schedule_config.cron', message: cronIssue });
  const timezone = canonicalTimeZone(config.timezone ?? 'UTC');
  if (!timezone) problems.push({ field: 'schedule_config.timezone', message: `"${config.timezone}" is not an IANA time zone name` });
  return { cron, timezone: timezone ?? 'UTC', note: config.note ?? '', missed_fire_policy: config.missed_fire_policy ?? 'skip' };
}

function deadmanOf(problems: Problem[], config: Partial<DeadmanConfig>): DeadmanConfig {
  checkPattern(problems, 'deadman_config.watch_event_type', config.watch_event_type);
  checkPattern(problems, 'deadman_config.after_event_type', config.after_event_type);
  checkFilter(problems, 'deadman_config.watch_filter', config.watch_filter);
  if (!config.within_seconds || config.within_seconds < 60) {
    problems.push({ field: 'deadman_config.within_seconds', message: 'must be at least 60' });
  }
  return {
    watch_event_type: config.watch_event_type ?? '',
    within_seconds: config.within_seconds ?? 0,
    watch_filter: config.watch_filter ?? null,
    after_event_type: config.after_event_type ?? null,
    recurring: config.recurring ?? true,
  };
}

/** The stored definition of a (shape-validated) draft; throws a 400 naming every field at fault. */
export function toDefinition(draft: TriggerDraft): TriggerDefinition {
  const problems: Problem[] = [];
  if (RESERVED_NAMES.has(draft.name)) problems.push({ field: 'name', message: `"${draft.name}" is reserved` });
  if (draft.schedule_config && draft.deadman_config) {
    problems.push({ field: 'schedule_config', message: 'a trigger cannot have both schedule_config and deadman_config' });
    problems.push({ field: 'deadman_config', message: 'a trigger cannot have both schedule_config and deadman_config' });
  }
  const kind: TriggerKind = draft.schedule_config ? 'scheduled' : draft.deadman_config ? 'deadman' : 'reactive';
  const fired = kind === 'scheduled' ? SCHEDULE_FIRED : kind === 'deadman' ? DEADMAN_FIRED : undefined;
  let eventType = draft.event_type ?? fired ?? '';
  if (kind === 'reactive') {
    if (!draft.event_type) problems.push({ field: 'event_type', message: 'is required for a reactive trigger' });
    checkPattern(problems, 'event_type', draft.event_type);
    checkFilter(problems, 'event_filter', draft.event_filter);
  } else {
    if (draft.event_type && draft.event_type !== fired) {
      problems.push({ field: 'event_type', message: `a ${kind} trigger fires on "${fired}"; leave event_type out or set it to that` });
    }
    if (draft.event_filter) {
      problems.push({ field: 'event_filter', message: `applies to reactive triggers only${kind === 'deadman' ? ' (use deadman_config.watch_filter)' : ''}` });
    }
    if (draft.ignore_own_results) problems.push({ field: 'ignore_own_results', message: 'applies to reactive triggers only' });
    eventType = fired!;
  }
  if (draft.input_mapping !== null && draft.input_mapping !== undefined) checkTemplates(problems, 'input_mapping', draft.input_mapping);
  checkTemplates(problems, 'dedup_key', draft.dedup_key);
  const schedule = draft.schedule_config ? scheduleOf(problems, draft.schedule_config) : null;
  const deadman = draft.deadman_config ? deadmanOf(problems, draft.deadman_config) : null;
  if (problems.length > 0) throw invalid(problems);
  return {
    name: draft.name,
    kind,
    event_type: eventType,
    event_filter: kind === 'reactive' ? (draft.event_filter ?? null) : null,
    target_type: 'workflow',
    target_name: draft.target_name,
    input_mapping: draft.input_mapping ?? null,
    active: draft.active ?? true,
    dedup_key: draft.dedup_key ?? null,
    dedup_window_seconds: draft.dedup_window_seconds ?? 300,
    ignore_own_results: draft.ignore_own_results ?? false,
    schedule_config: schedule as Record<string, unknown> | null,
    deadman_config: deadman as Record<string, unknown> | null,
  };
}
