// The conversations panel's groups: today, yesterday,
// previous 7 days, older, by the local calendar day of `last_active`.
import type { Session } from './types.ts';

export type Group = 'today' | 'yesterday' | 'previous7' | 'older';
export const GROUP_ORDER: Group[] = ['today', 'yesterday', 'previous7', 'older'];

/** Timestamps arrive in UTC, with or without a zone suffix: read both as UTC. */
export function parseUtc(value: string | null | undefined): Date {
  if (!value) return new Date(0);
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
}

const DAY = 86_400_000;

export function groupOf(when: Date, now: Date): Group {
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const t = when.getTime();
  if (t >= startOfToday) return 'today';
  if (t >= startOfToday - DAY) return 'yesterday';
  if (t >= startOfToday - 7 * DAY) return 'previous7';
  return 'older';
}

export function groupSessions(sessions: Session[], now: Date, search: string): { group: Group; sessions: Session[] }[] {
  const needle = search.trim().toLowerCase();
  const matching = needle ? sessions.filter((s) => (s.title ?? '').toLowerCase().includes(needle)) : sessions;
  const byGroup = new Map<Group, Session[]>();
  for (const session of matching) {
    const group = groupOf(parseUtc(session.last_active ?? session.created_at), now);
    byGroup.set(group, [...(byGroup.get(group) ?? []), session]);
  }
  return GROUP_ORDER.filter((g) => byGroup.has(g)).map((group) => ({ group, sessions: byGroup.get(group)! }));
}
