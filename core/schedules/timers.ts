// The timer job of a schedule: one graphile-worker job of task
// core.schedule_fire, keyed per (kind, tenant, subject), armed for the next
// occurrence in the same transaction as the row (replaced on change, removed
// on pause or delete). Its payload carries the instant it stands for; the
// handler fires only if the row, locked, still says so.
import type { JobsApi } from '../jobs/types.ts';
import type { TenantTransaction } from '../db/tenant.ts';

export const SCHEDULE_FIRE_TASK = 'core.schedule_fire';

export interface ScheduleTimer {
  tenant_id: string;
  kind: string;
  subject: string;
  /** ISO instant of the occurrence this timer stands for. */
  scheduled_time: string;
}

export const timerKey = (kind: string, tenantId: string, subject: string) => `schedule:${kind}:${tenantId}:${subject}`;

export async function arm(jobs: JobsApi, trx: TenantTransaction, tenantId: string, kind: string, subject: string, at: Date): Promise<void> {
  const timer: ScheduleTimer = { tenant_id: tenantId, kind, subject, scheduled_time: at.toISOString() };
  await jobs.enqueue(SCHEDULE_FIRE_TASK, { ...timer }, { trx, jobKey: timerKey(kind, tenantId, subject), runAt: at });
}

export async function disarm(jobs: JobsApi, trx: TenantTransaction, tenantId: string, kind: string, subject: string): Promise<void> {
  await jobs.removeJob(timerKey(kind, tenantId, subject), trx);
}
