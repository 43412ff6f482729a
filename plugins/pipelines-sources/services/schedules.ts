// Source schedules: one per source, kept by core.schedules (kind
// SOURCE_SCHEDULE, schedule/fire.ts fires it): get, put, pause, resume,
// trigger, delete, and the tenant's list.
import { createOwnedSchedules, type Schedule, type TenantTransaction } from 'agent-platform/sdk';
import type { SourcesContext } from './context.ts';
import { SOURCE_SCHEDULE } from '../schedule/fire.ts';
import type { RunService } from './runs.ts';
import type { SourceService } from './sources.ts';
import { sourcesStore } from '../store/sources.ts';

export type { OwnedScheduleInput as ScheduleInput } from 'agent-platform/sdk';

const view = (row: Schedule, name?: string) => ({
  source_id: row.subject, ...(name === undefined ? {} : { source_name: name }),
  cron: row.cron, timezone: row.timezone, missed_run_policy: row.missed_policy, paused: row.paused,
  next_run_at: row.next_run_at, last_run_at: row.last_run_at, last_outcome: row.last_outcome, last_sync_run_id: row.last_run_id,
  created_at: row.created_at, updated_at: row.updated_at,
});

export function createScheduleService(context: SourcesContext, sources: SourceService, runs: RunService) {
  const { core } = context;
  const owned = createOwnedSchedules({
    core, kind: SOURCE_SCHEDULE, noun: 'source', view,
    findSubject: (trx: TenantTransaction, id: string, lock: boolean) => sources.find(trx, id, lock),
    names: (trx: TenantTransaction, ids: string[]) => sourcesStore.names(trx, ids),
  });
  return {
    ...owned,
    /** Runs the scheduled sync now (the schedule's timing is unchanged): 409 while a run is going. */
    trigger: async (tenantId: string, sourceId: string, createdBy: string | null) => {
      await core.withTenant(tenantId, (trx) => owned.find(trx, sourceId));
      return runs.start(tenantId, sourceId, { trigger: 'schedule', createdBy });
    },
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;
