// What plugins see of the two queues (see core/jobs/index.ts for the roles).
import type { OperationNodeSource, Transaction } from 'kysely';
import type { Database } from '../db/types.ts';

export interface JobContext {
  /** Which attempt this is, starting at 1. */
  attempt: number;
  /** Aborted when the process is shutting down past its grace period, and for a long task when its job expires (expireInSeconds). */
  signal: AbortSignal;
  /** A fast job's key as it was when the job was taken (undefined for a job enqueued without one). */
  jobKey?: string;
}

export type FastTaskHandler = (payload: any, context: JobContext) => Promise<void>;
export type LongTaskHandler = (data: any, context: JobContext & { id: string }) => Promise<unknown>;

export interface LongTaskOptions {
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
  /**
   * The worker running a job refreshes it this often (seconds, at least 10);
   * a job whose worker died (a killed process) is failed, and retried, once
   * its heartbeat is this old, instead of after its whole expiry.
   */
  heartbeatSeconds?: number;
  /** Concurrent jobs of this task in this process. */
  concurrency?: number;
  /** At most this many jobs of one group (EnqueueLongOptions.group) active at once, across processes. */
  groupConcurrency?: number;
  /**
   * Failed jobs (after their retries) are moved to `${name}.dead` (default
   * true; false: they stay failed). A task named `${other}.dead`, the dead
   * letter of another long task, defaults to false.
   */
  deadLetter?: boolean;
}

export interface EnqueueOptions {
  /** Enqueue inside this transaction: the job exists only if it commits. */
  trx?: Transaction<Database>;
  /** Jobs of one queue run one at a time, in order (e.g. one dispatcher per tenant). */
  queue?: string;
  /** A job with the same key is replaced (rescheduled timers). */
  jobKey?: string;
  runAt?: Date;
  maxAttempts?: number;
  /** Lower runs first among jobs due (graphile-worker's priority; default 0), e.g. a dispatcher ahead of a backlog of steps. */
  priority?: number;
}

/** One job of a batch (`enqueueMany`): its task, payload and options. */
export interface JobSpec {
  name: string;
  payload: Record<string, unknown>;
  queue?: string;
  jobKey?: string;
  runAt?: Date;
  maxAttempts?: number;
  /** Lower runs first among jobs due (graphile-worker's priority; default 0). */
  priority?: number;
}

export interface EnqueueLongOptions {
  trx?: Transaction<Database>;
  startAfter?: Date | number;
  singletonKey?: string;
  /** The job's group (e.g. its tenant), limited by the task's groupConcurrency. */
  group?: string;
}

export interface ScheduleOptions {
  /** IANA time zone of the cron expression; UTC when absent. */
  tz?: string;
  data?: Record<string, unknown>;
  /** The group of the jobs it sends (see EnqueueLongOptions.group). */
  group?: string;
}

export interface JobsApi {
  /** A fast, keyed task run by graphile-worker. */
  defineTask(name: string, handler: FastTaskHandler): void;
  /** A scheduled or long task run by pg-boss, with retries, expiry and dead letters. */
  defineLongTask(name: string, handler: LongTaskHandler, options?: LongTaskOptions): void;
  enqueue(name: string, payload: Record<string, unknown>, options?: EnqueueOptions): Promise<void>;
  /**
   * Fast jobs in one round trip (graphile-worker's add_jobs), in the
   * transaction when given. Of two specs with one job key, the later wins
   * (as if enqueued one after the other). `alongside` (with `trx`): the
   * caller's data-modifying queries (kysely insert, update or delete
   * builders, or `sql` of one such statement without a WITH of its own) sent
   * in the same statement: a round trip each less. They run on one snapshot
   * and do not see each other's changes.
   */
  enqueueMany(jobs: JobSpec[], trx?: Transaction<Database>, options?: { alongside?: OperationNodeSource[] }): Promise<void>;
  enqueueLong(name: string, data: Record<string, unknown>, options?: EnqueueLongOptions): Promise<string | null>;
  /** A cron schedule (5 fields) that sends `task` a job at each tick; `key` names the schedule. */
  schedule(task: string, key: string, cron: string, options?: ScheduleOptions): Promise<void>;
  unschedule(task: string, key: string): Promise<void>;
  /** Removes a pending fast job by its key (a cancelled timer). */
  removeJob(jobKey: string, trx?: Transaction<Database>): Promise<void>;
  /** Job counts by queue (task) and state, read from graphile-worker's and pg-boss's own tables (the orchestrator endpoints, metrics). */
  counts(): Promise<{ queue: string; state: string; count: number }[]>;
  /** What this process's workers run: each task with its library and concurrency, the worker settings, whether the workers are started. */
  describe(): JobsDescription;
}

export interface JobsDescription {
  started: boolean;
  /** graphile-worker: fast tasks share one worker pool of `concurrency` slots. */
  fast: { concurrency: number; pollIntervalMs: number; tasks: string[] };
  /** pg-boss: each long task is its own queue, worked with its own concurrency. */
  long: { name: string; concurrency: number; groupConcurrency: number | null; retryLimit: number; expireInSeconds: number }[];
}
