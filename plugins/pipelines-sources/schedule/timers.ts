// The timer job of a source schedule: a graphile-worker job keyed per source,
// armed for the next occurrence in the same transaction as the schedule row
// (replaced on change, removed on pause or delete). Its payload carries the
// instant it stands for; the handler fires only if the row, locked, still says so.
import type { TenantTransaction } from 'agent-platform/sdk';
import type { SourcesContext } from '../services/context.ts';

export const SCHEDULE_TASK = 'pipelines.schedule_fire';

export interface ScheduleTimer {
  tenant_id: string;
  source_id: string;
  /** ISO instant of the occurrence this timer stands for. */
  scheduled_time: string;
}

export const timerKey = (tenantId: string, sourceId: string) => `pipelines:schedule:${tenantId}:${sourceId}`;

export async function arm(context: SourcesContext, trx: TenantTransaction, tenantId: string, sourceId: string, at: Date): Promise<void> {
  const payload: ScheduleTimer = { tenant_id: tenantId, source_id: sourceId, scheduled_time: at.toISOString() };
  await context.core.jobs.enqueue(SCHEDULE_TASK, { ...payload }, { trx, jobKey: timerKey(tenantId, sourceId), runAt: at });
}

export async function disarm(context: SourcesContext, trx: TenantTransaction, tenantId: string, sourceId: string): Promise<void> {
  await context.core.jobs.removeJob(timerKey(tenantId, sourceId), trx);
}
