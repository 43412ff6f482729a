// Cron arithmetic of every schedule of the platform (core/schedules/, which
// keeps every plugin's schedules): pure functions of (cron, IANA zone,
// instant), and the missed-run policy. core.schedules arms each timer with
// nextOccurrence and, when a timer fires, decides with dueOccurrence what to
// fire and what comes next: so
// these are what the DST tests exercise (plugins/events/test/schedule-dst.test.ts).
//
// DST semantics (those of cron-parser's forward walk, documented in the README):
// a wall-clock time that does not exist (spring forward) fires the same length
// of time after the shift (02:30 → 03:30); one that occurs twice (fall back)
// fires once, at its first occurrence, unless the hour field is a wildcard or
// step, in which case every real hour fires.
//
// Occurrences are always found by walking forward from the previous one (or
// from the instant the trigger was armed): cron-parser's prev() disagrees with
// next() across a DST change (it skips the shifted spring occurrence and
// reports the repeated autumn one), and so does a walk that starts inside a
// repeated autumn hour. That is also why this plugin does not use pg-boss cron
// schedules, whose due check is prev()-based: no fire on spring-forward day,
// two on fall-back day (see plugins/events/README.md).
import { createRequire } from 'node:module';
import type { CronExpressionParser } from 'cron-parser';

/** cron-parser (CommonJS), loaded on the first cron expression this process reads. */
let parser: typeof CronExpressionParser | undefined;
const require = createRequire(import.meta.url);

const FIELD_NAMES = ['minute', 'hour', 'day of month', 'month', 'day of week'];

function parse(cron: string, tz: string, from: Date) {
  parser ??= (require('cron-parser') as typeof import('cron-parser')).CronExpressionParser;
  return parser.parse(cron, { tz, currentDate: from, strict: false });
}

/** A problem with a 5-field cron expression, or undefined when it is usable. */
export function cronProblem(cron: string): string | undefined {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return `must have 5 fields (${FIELD_NAMES.join(', ')}), found ${fields.length}`;
  for (const [index, field] of fields.entries()) {
    // Jenkins-style H (hashed) is not standard cron and is not stable across parsers.
    if (field.split(/[,\-/]/).some((token) => /^h/i.test(token))) return `${FIELD_NAMES[index]} field: "H" is not supported`;
  }
  try {
    parse(cron, 'UTC', new Date()).next();
  } catch (err) {
    return (err as Error).message;
  }
  return undefined;
}

/**
 * The canonical name of an IANA time zone ("europe/oslo" → "Europe/Oslo"),
 * or undefined when it is not one. Offsets ("+05:00") are refused: a schedule
 * in a fixed offset never follows the zone's DST rules.
 */
export function canonicalTimeZone(zone: string): string | undefined {
  if (!zone || /^[+-]/.test(zone)) return undefined;
  try {
    const canonical = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    parse('0 0 * * *', canonical, new Date()).next();
    return canonical;
  } catch {
    return undefined;
  }
}

/** The first occurrences strictly after `after`. */
export function nextOccurrences(cron: string, tz: string, after: Date, count = 1): Date[] {
  const walk = parse(cron, tz, after);
  const out: Date[] = [];
  for (let i = 0; i < count; i += 1) out.push(walk.next().toDate());
  return out;
}

export function nextOccurrence(cron: string, tz: string, after: Date): Date {
  return nextOccurrences(cron, tz, after, 1)[0];
}

export interface Walk {
  /** Occurrences in (from, now]: the ones that fell due. */
  due: number;
  /** The last of them, or null when none did. */
  latest: Date | null;
  /** The first occurrence after now. */
  next: Date;
}

/**
 * Walks the occurrences after `from` (the occurrence last armed) up to `now`.
 * A walk longer than `maxSteps` (a minutely schedule down for months) restarts
 * a day before now, counting at least maxSteps.
 */
export function walkTo(cron: string, tz: string, from: Date, now: Date, maxSteps = 100_000): Walk {
  let walk = parse(cron, tz, from);
  let due = 0;
  let latest: Date | null = null;
  for (;;) {
    const occurrence = walk.next().toDate();
    if (occurrence.getTime() > now.getTime()) return { due, latest, next: occurrence };
    due += 1;
    latest = occurrence;
    if (due === maxSteps) walk = parse(cron, tz, new Date(Math.max(occurrence.getTime(), now.getTime() - 86_400_000)));
  }
}

/**
 * What a late timer does with the occurrences it missed (the platform was
 * down): `skip` records the miss and fires nothing; `catch_up_once` fires
 * once, for the most recent occurrence that fell due.
 */
export type MissedRunPolicy = 'skip' | 'catch_up_once';
export const MISSED_RUN_POLICIES: readonly MissedRunPolicy[] = ['skip', 'catch_up_once'];

export interface DueOccurrence {
  /** The occurrence to fire for now, or null when the policy skips the late ones. */
  fire: Date | null;
  /** The most recent occurrence that fell due (the timer's own at least). */
  latest: Date;
  /** Occurrences that fell due, the timer's own included (more than 1 only when the timer is late). */
  due: number;
  /** The latest occurrence is more than the grace period in the past. */
  late: boolean;
  /** The first occurrence after now: where the next timer goes. */
  next: Date;
}

/**
 * The missed-run policy, for a timer armed for `scheduled` that runs at
 * `now`: on time (within `graceSeconds` of the latest due occurrence) it
 * fires; late, `skip` fires nothing and `catch_up_once` fires once for the
 * latest occurrence.
 */
export function dueOccurrence(cron: string, tz: string, scheduled: Date, now: Date, graceSeconds: number, policy: MissedRunPolicy): DueOccurrence {
  const walk = walkTo(cron, tz, scheduled, now);
  const latest = walk.latest ?? scheduled;
  const late = now.getTime() - latest.getTime() > graceSeconds * 1000;
  return { fire: !late || policy === 'catch_up_once' ? latest : null, latest, due: 1 + walk.due, late, next: walk.next };
}
