// Transform schedules: get, put, pause, resume,
// trigger, delete, and the tenant's list — cron (5 fields) in an IANA zone
// through the SDK's cron functions, the timer job armed, replaced or removed
// with the row (as source schedules do).
import { badRequest, canonicalTimeZone, cronProblem, nextOccurrence, notFound, type TenantTransaction } from 'agent-platform/sdk';
import type { TransformsContext } from './context.ts';
import type { RunService } from './runs.ts';
import type { TransformService } from './transforms.ts';
import { schedulesStore, type ScheduleRow } from '../store/schedules.ts';
import { arm, disarm } from '../tasks/pipelines-transforms.schedule_fire.ts';

export interface ScheduleInput {
  cron: string;
  timezone?: string;
  missed_run_policy?: 'skip' | 'catch_up_once';
  paused?: boolean;
}

export function createScheduleService(context: TransformsContext, transforms: TransformService, runs: RunService) {
  const { core } = context;
  const now = () => core.clock.now();

  async function find(trx: TenantTransaction, transformId: string, lock = false): Promise<ScheduleRow> {
    await transforms.find(trx, transformId, lock);
    const row = await schedulesStore.find(trx, transformId, lock);
    if (!row) throw notFound('The transform has no schedule', 'SCHEDULE_NOT_FOUND');
    return row;
  }

  return {
    find,
    disarm: (trx: TenantTransaction, tenantId: string, transformId: string) => disarm(context, trx, tenantId, transformId),

    get: (tenantId: string, transformId: string) => core.withTenant(tenantId, (trx) => find(trx, transformId)),

    list: (tenantId: string, page: { limit: number; offset: number }) => core.withTenant(tenantId, async (trx) => ({
      items: await schedulesStore.list(trx, page), ...page,
    })),

    put: (tenantId: string, transformId: string, input: ScheduleInput) => {
      const problem = cronProblem(input.cron);
      if (problem) throw badRequest(`cron: ${problem}`, 'SCHEDULE_INVALID');
      const timezone = canonicalTimeZone(input.timezone ?? 'UTC');
      if (!timezone) throw badRequest(`timezone "${input.timezone}" is not an IANA time zone`, 'SCHEDULE_INVALID');
      return core.withTenant(tenantId, async (trx) => {
        await transforms.find(trx, transformId, true);
        const paused = input.paused ?? false;
        const next = paused ? null : nextOccurrence(input.cron, timezone, now());
        await schedulesStore.upsert(trx, tenantId, transformId, { cron: input.cron, timezone, missed_run_policy: input.missed_run_policy ?? 'skip', paused, next_run_at: next });
        await disarm(context, trx, tenantId, transformId);
        if (next) await arm(context, trx, tenantId, transformId, next);
        return find(trx, transformId);
      });
    },

    remove: (tenantId: string, transformId: string) => core.withTenant(tenantId, async (trx) => {
      await find(trx, transformId, true);
      await schedulesStore.delete(trx, transformId);
      await disarm(context, trx, tenantId, transformId);
    }),

    /** Pauses every schedule of an archived transform (no timer until resumed). */
    pauseQuietly: async (trx: TenantTransaction, tenantId: string, transformId: string) => {
      await disarm(context, trx, tenantId, transformId);
      await schedulesStore.set(trx, transformId, { paused: true, next_run_at: null });
    },

    pause: (tenantId: string, transformId: string) => core.withTenant(tenantId, async (trx) => {
      await find(trx, transformId, true);
      await disarm(context, trx, tenantId, transformId);
      await schedulesStore.set(trx, transformId, { paused: true, next_run_at: null });
      return find(trx, transformId);
    }),

    /** Resumes from now: occurrences that fell while paused are not caught up. */
    resume: (tenantId: string, transformId: string) => core.withTenant(tenantId, async (trx) => {
      const row = await find(trx, transformId, true);
      if (!row.paused) return row;
      const next = nextOccurrence(row.cron, row.timezone, now());
      await arm(context, trx, tenantId, transformId, next);
      await schedulesStore.set(trx, transformId, { paused: false, next_run_at: next });
      return find(trx, transformId);
    }),

    /** Runs the transform now as the schedule would (its timing unchanged): a queued run. */
    trigger: async (tenantId: string, transformId: string, createdBy: string | null) => {
      const runId = await core.withTenant(tenantId, async (trx) => {
        await find(trx, transformId);
        return runs.queue(trx, tenantId, await transforms.find(trx, transformId), { trigger: 'schedule', createdBy });
      });
      return runs.get(tenantId, runId);
    },
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;
