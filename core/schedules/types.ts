// The types of core.schedules: what a plugin declares for a kind of schedule,
// what it writes, and what a fire hands it.
import type { TenantTransaction } from '../db/tenant.ts';
import type { MissedRunPolicy } from '../cron.ts';

/** One schedule: a 5-field cron in an IANA zone, its timer state and its last fire. */
export interface Schedule {
  tenant_id: string;
  kind: string;
  subject: string;
  cron: string;
  timezone: string;
  missed_policy: MissedRunPolicy;
  paused: boolean;
  /** What the owner keeps with the schedule, handed back at each fire. */
  data: Record<string, unknown>;
  /** The occurrence the timer is armed for; null while paused. */
  next_run_at: Date | null;
  /** The last occurrence that fired. */
  last_run_at: Date | null;
  /** What the last timer did (the owner's words, or the missed-run policy's). */
  last_outcome: string | null;
  /** What the last fire started, as the owner names it (a run id). */
  last_run_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface ScheduleInput {
  kind: string;
  subject: string;
  cron: string;
  /** An IANA zone; UTC when absent. */
  timezone?: string;
  missedPolicy?: MissedRunPolicy;
  paused?: boolean;
  data?: Record<string, unknown>;
}

/** An occurrence handed to a kind's onFire. */
export interface Occurrence {
  tenantId: string;
  subject: string;
  /** The occurrence that fires (the latest due when the timer was late). */
  scheduledTime: Date;
  /** Occurrences collapsed into this one (the timer was late, catch_up_once); 0 on time and for a trigger. */
  missed: number;
  /** Later than the grace period after its occurrence. */
  late: boolean;
  /** The occurrence armed next; null for a trigger (the timing is unchanged). */
  next: Date | null;
  data: Record<string, unknown>;
}

/** Occurrences skipped by the `skip` policy, handed to a kind's onMiss. */
export interface MissedOccurrences {
  tenantId: string;
  subject: string;
  /** Occurrences that fell due, all skipped. */
  due: number;
  latest: Date;
  next: Date;
  data: Record<string, unknown>;
}

/** What a fire did: recorded on the schedule (last_outcome, last_run_id). */
export interface FireResult {
  /** Defaults to `started` (with the collapsed count when the timer was late). */
  outcome?: string;
  runId?: string | null;
}

export interface ScheduleKind {
  /** Fires one occurrence, in the transaction that holds the schedule's row and re-arms its timer. */
  onFire(trx: TenantTransaction, occurrence: Occurrence): Promise<FireResult | void>;
  /** Records occurrences the `skip` policy did not fire (the schedule's last_outcome records them anyway). */
  onMiss?(trx: TenantTransaction, missed: MissedOccurrences): Promise<void>;
  /** How late a timer may run and still count as on time; 60 s when absent. */
  graceSeconds?: number;
}

/** core.schedules: every plugin's cron schedules, each with one timer job, on the caller's tenant transaction. */
export interface SchedulesApi {
  /** Declares a kind (in a plugin's register): a second define of one kind throws. */
  define(kind: string, definition: ScheduleKind): void;
  /** Creates or replaces a schedule and arms its next occurrence unless paused (400 SCHEDULE_INVALID on a bad cron or zone). */
  put(trx: TenantTransaction, tenantId: string, input: ScheduleInput): Promise<Schedule>;
  get(trx: TenantTransaction, kind: string, subject: string, options?: { lock?: boolean }): Promise<Schedule | undefined>;
  /** The tenant's schedules of a kind. */
  list(trx: TenantTransaction, kind: string): Promise<Schedule[]>;
  /** Removes the timer; `outcome` is recorded as the last outcome when given. */
  pause(trx: TenantTransaction, tenantId: string, kind: string, subject: string, options?: { outcome?: string }): Promise<Schedule | undefined>;
  /** Arms the next occurrence from now: occurrences that fell while paused are not caught up. */
  resume(trx: TenantTransaction, tenantId: string, kind: string, subject: string): Promise<Schedule | undefined>;
  /** Deletes the schedule and its timer; false when there was none. */
  remove(trx: TenantTransaction, tenantId: string, kind: string, subject: string): Promise<boolean>;
  /** Fires the schedule now (its timing unchanged); undefined when there is no such schedule. */
  trigger(trx: TenantTransaction, tenantId: string, kind: string, subject: string): Promise<FireResult | void | undefined>;
}
