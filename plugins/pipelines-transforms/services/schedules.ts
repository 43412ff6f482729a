// Transform schedules: one per transform, kept by core.schedules (kind
// TRANSFORM_SCHEDULE, fired by tasks/pipelines-transforms.schedule_fire.ts):
// get, put, pause, resume, trigger, delete, and the tenant's list.
import { createOwnedSchedules, type Schedule, type TenantTransaction } from 'agent-platform/sdk';
import type { TransformsContext } from './context.ts';
import type { RunService } from './runs.ts';
import type { TransformService } from './transforms.ts';
import { transformsStore } from '../store/transforms.ts';
import { TRANSFORM_SCHEDULE } from '../tasks/pipelines-transforms.schedule_fire.ts';

export type { OwnedScheduleInput as ScheduleInput } from 'agent-platform/sdk';

export const scheduleView = (row: Schedule, name?: string) => ({
  transform_id: row.subject, transform_name: name,
  cron: row.cron, timezone: row.timezone, missed_run_policy: row.missed_policy, paused: row.paused,
  next_run_at: row.next_run_at, last_run_at: row.last_run_at, last_outcome: row.last_outcome, last_run_id: row.last_run_id,
  created_at: row.created_at, updated_at: row.updated_at,
});

export function createScheduleService(context: TransformsContext, transforms: TransformService, runs: RunService) {
  const { core } = context;
  const owned = createOwnedSchedules({
    core, kind: TRANSFORM_SCHEDULE, noun: 'transform', view: scheduleView, namedViews: true,
    findSubject: (trx: TenantTransaction, id: string, lock: boolean) => transforms.find(trx, id, lock),
    names: (trx: TenantTransaction, ids: string[]) => transformsStore.names(trx, ids),
  });
  return {
    ...owned,
    disarm: async (trx: TenantTransaction, tenantId: string, transformId: string) => {
      await core.schedules.remove(trx, tenantId, TRANSFORM_SCHEDULE, transformId);
    },

    /** Pauses the schedule of an archived transform (no timer until resumed). */
    pauseQuietly: async (trx: TenantTransaction, tenantId: string, transformId: string) => {
      await core.schedules.pause(trx, tenantId, TRANSFORM_SCHEDULE, transformId);
    },

    /** Runs the transform now as the schedule would (its timing unchanged): a queued run. */
    trigger: async (tenantId: string, transformId: string, createdBy: string | null) => {
      const runId = await core.withTenant(tenantId, async (trx) => {
        await owned.find(trx, transformId);
        return runs.queue(trx, tenantId, await transforms.find(trx, transformId), { trigger: 'schedule', createdBy });
      });
      return runs.get(tenantId, runId);
    },
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;
