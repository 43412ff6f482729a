// Source schedules: get, put, pause, resume,
// trigger, delete, and the tenant's list. Cron (5 fields) in an IANA zone;
// the timer job is armed, replaced or removed with the row.
import { badRequest, canonicalTimeZone, cronProblem, nextOccurrence, notFound, type TenantTransaction } from 'agent-platform/sdk';
import type { SourcesContext } from './context.ts';
import { arm, disarm } from '../schedule/timers.ts';
import type { RunService } from './runs.ts';
import type { SourceService } from './sources.ts';
import { schedulesStore, type ScheduleRow } from '../store/schedules.ts';

export interface ScheduleInput {
  cron: string;
  timezone?: string;
  missed_run_policy?: 'skip' | 'catch_up_once';
  paused?: boolean;
}

export function createScheduleService(context: SourcesContext, sources: SourceService, runs: RunService) {
  const { core } = context;
  const now = () => core.clock.now();

  async function find(trx: TenantTransaction, sourceId: string, lock = false): Promise<ScheduleRow> {
    await sources.find(trx, sourceId, lock);
    const row = lock ? await schedulesStore.lock(trx, sourceId) : await schedulesStore.find(trx, sourceId);
    if (!row) throw notFound('The source has no schedule', 'SCHEDULE_NOT_FOUND');
    return row;
  }

  return {
    get: (tenantId: string, sourceId: string) => core.withTenant(tenantId, (trx) => find(trx, sourceId)),

    list: (tenantId: string, page: { limit: number; offset: number }) => core.withTenant(tenantId, async (trx) => ({
      items: await schedulesStore.list(trx, page), ...page,
    })),

    /** Creates or replaces the schedule, and arms its next occurrence unless paused. */
    put: (tenantId: string, sourceId: string, input: ScheduleInput) => {
      const problem = cronProblem(input.cron);
      if (problem) throw badRequest(`cron: ${problem}`, 'SCHEDULE_INVALID');
      const timezone = canonicalTimeZone(input.timezone ?? 'UTC');
      if (!timezone) throw badRequest(`timezone "${input.timezone}" is not an IANA time zone`, 'SCHEDULE_INVALID');
      return core.withTenant(tenantId, async (trx) => {
        await sources.find(trx, sourceId, true);
        const paused = input.paused ?? false;
        const next = paused ? null : nextOccurrence(input.cron, timezone, now());
        const row = await schedulesStore.upsert(trx, tenantId, sourceId, { cron: input.cron, timezone, missed_run_policy: input.missed_run_policy ?? 'skip', paused, next_run_at: next });
        await disarm(context, trx, tenantId, sourceId);
        if (next) await arm(context, trx, tenantId, sourceId, next);
        return row;
      });
    },

    remove: (tenantId: string, sourceId: string) => core.withTenant(tenantId, async (trx) => {
      await find(trx, sourceId, true);
      await schedulesStore.delete(trx, sourceId);
      await disarm(context, trx, tenantId, sourceId);
    }),

    pause: (tenantId: string, sourceId: string) => core.withTenant(tenantId, async (trx) => {
      await find(trx, sourceId, true);
      await disarm(context, trx, tenantId, sourceId);
      return schedulesStore.set(trx, sourceId, { paused: true, next_run_at: null });
    }),

    /** Resumes from now: occurrences that fell while paused are not caught up. */
    resume: (tenantId: string, sourceId: string) => core.withTenant(tenantId, async (trx) => {
      const row = await find(trx, sourceId, true);
      if (!row.paused) return row;
      const next = nextOccurrence(row.cron, row.timezone, now());
      await arm(context, trx, tenantId, sourceId, next);
      return schedulesStore.set(trx, sourceId, { paused: false, next_run_at: next });
    }),

    /** Runs the scheduled sync now (the schedule's timing is unchanged): 409 while a run is going. */
    trigger: async (tenantId: string, sourceId: string, createdBy: string | null) => {
      await core.withTenant(tenantId, (trx) => find(trx, sourceId));
      return runs.start(tenantId, sourceId, { trigger: 'schedule', createdBy });
    },
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;
