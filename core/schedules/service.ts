// core.schedules: the kinds plugins declare, and their schedules written on
// the caller's tenant transaction, so that a row and its timer job commit
// together. The timer task (core.schedule_fire) is defined once, here.
import type { Logger } from 'pino';
import { badRequest } from '../errors.ts';
import { canonicalTimeZone, cronProblem, nextOccurrence } from '../cron.ts';
import type { TenantTransaction, WithTenant } from '../db/tenant.ts';
import type { JobsApi } from '../jobs/types.ts';
import { fireTimer } from './fire.ts';
import { schedulesStore } from './store.ts';
import { arm, disarm, SCHEDULE_FIRE_TASK, type ScheduleTimer } from './timers.ts';
import type { ScheduleKind, SchedulesApi } from './types.ts';

export interface SchedulesDeps {
  withTenant: WithTenant;
  jobs: JobsApi;
  logger: Logger;
  now(): Date;
}

export function createSchedules(deps: SchedulesDeps): SchedulesApi {
  const kinds = new Map<string, ScheduleKind>();
  const kindOf = (kind: string) => kinds.get(kind);
  deps.jobs.defineTask(SCHEDULE_FIRE_TASK, (timer: ScheduleTimer) => fireTimer({ ...deps, kindOf }, timer));

  const requireKind = (kind: string) => {
    const definition = kinds.get(kind);
    if (!definition) throw new Error(`schedule kind ${kind} is not defined (core.schedules.define in its plugin's register)`);
    return definition;
  };

  const api: SchedulesApi = {
    define(kind, definition) {
      if (!kind || kind.length > 100) throw new Error(`schedule kind "${kind}" must have 1 to 100 characters`);
      if (kinds.has(kind)) throw new Error(`schedule kind ${kind} is already defined`);
      kinds.set(kind, definition);
    },

    // A CLI command writes schedules without the plugins' register having run: the kind is checked when a timer fires.
    async put(trx, tenantId, input) {
      const problem = cronProblem(input.cron);
      if (problem) throw badRequest(`cron: ${problem}`, 'SCHEDULE_INVALID');
      const timezone = canonicalTimeZone(input.timezone ?? 'UTC');
      if (!timezone) throw badRequest(`timezone "${input.timezone}" is not an IANA time zone`, 'SCHEDULE_INVALID');
      const paused = input.paused ?? false;
      const next = paused ? null : nextOccurrence(input.cron, timezone, deps.now());
      const row = await schedulesStore.upsert(trx, tenantId, input.kind, input.subject, {
        cron: input.cron, timezone, missed_policy: input.missedPolicy ?? 'skip', paused, next_run_at: next, data: input.data ?? {},
      });
      await disarm(deps.jobs, trx, tenantId, input.kind, input.subject);
      if (next) await arm(deps.jobs, trx, tenantId, input.kind, input.subject, next);
      return row;
    },

    get: (trx, kind, subject, options) => schedulesStore.find(trx, kind, subject, options?.lock ?? false),

    list: (trx, kind) => schedulesStore.list(trx, kind),

    async pause(trx, tenantId, kind, subject, options) {
      if (!(await schedulesStore.find(trx, kind, subject, true))) return undefined;
      await disarm(deps.jobs, trx, tenantId, kind, subject);
      return schedulesStore.set(trx, kind, subject, { paused: true, next_run_at: null, ...(options?.outcome ? { last_outcome: options.outcome } : {}) });
    },

    async resume(trx, tenantId, kind, subject) {
      const row = await schedulesStore.find(trx, kind, subject, true);
      if (!row?.paused) return row;
      const next = nextOccurrence(row.cron, row.timezone, deps.now());
      await arm(deps.jobs, trx, tenantId, kind, subject, next);
      return schedulesStore.set(trx, kind, subject, { paused: false, next_run_at: next });
    },

    async remove(trx, tenantId, kind, subject) {
      await disarm(deps.jobs, trx, tenantId, kind, subject);
      return schedulesStore.delete(trx, kind, subject);
    },

    async trigger(trx: TenantTransaction, tenantId, kind, subject) {
      const definition = requireKind(kind);
      const row = await schedulesStore.find(trx, kind, subject, true);
      if (!row) return undefined;
      return definition.onFire(trx, { tenantId, subject, scheduledTime: deps.now(), missed: 0, late: false, next: null, data: row.data });
    },
  };
  return api;
}
