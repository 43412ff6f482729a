// The tenant's usage this week: each `console.usage` counter's count of rows
// created since the start of the week (Monday 00:00 UTC).
import { conflict, type CoreServices } from 'agent-platform/sdk';
import type { UsageCounter } from '../api.ts';

/** Monday 00:00 UTC of the week `now` falls in. */
export function weekStart(now: Date): Date {
  const day = (now.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - day));
}

export function createUsageService(core: CoreServices) {
  const counters = new Map<string, UsageCounter>();
  return {
    add(counter: UsageCounter, contributor: string): void {
      if (counters.has(counter.key)) throw conflict(`usage counter "${counter.key}" is contributed twice (by ${contributor})`, 'USAGE_COUNTER_TAKEN');
      counters.set(counter.key, counter);
    },
    async week(tenantId: string) {
      const since = weekStart(core.clock.now());
      const entries = await Promise.all([...counters.values()].map(async (c) => [c.key, await c.count(tenantId, since)] as const));
      return { since, counts: Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b))) };
    },
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
