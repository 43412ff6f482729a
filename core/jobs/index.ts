// The only place that talks to the two queue libraries.
// - graphile-worker: fast, keyed, ordered per queue (per-tenant dispatch,
//   workflow steps, timers with replaceable job keys).
// - pg-boss: cron schedules with IANA time zones and long work with retries,
//   back-off, expiry and dead letters.
// Neither relies on LISTEN/NOTIFY or advisory locks for correctness: both poll
// with row locks (SKIP LOCKED), so the embedded PGlite default works too.
// A job carries the trace context it was enqueued in, and its run is a span
// of that trace (telemetry/jobs.ts).
import { EventEmitter, once } from 'node:events';
import type { Logger as WorkerLogger, Runner, TaskList, WorkerEvents } from 'graphile-worker';
import type { PgBoss } from 'pg-boss';
import { CompiledQuery, type OperationNodeSource, sql, type Transaction } from 'kysely';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Database } from '../db/types.ts';
import { grantTenantQueueRole, grantTenantRole } from '../db/grants.ts';
import { checkSecondConnection } from '../db/connection-guard.ts';
import { WorkerLiveness } from './liveness.ts';
import { installQueueWakeup } from './queue-wakeup.ts';
import { declareLongQueues, type QueuePolicy } from './queues.ts';
import { runTracedJob, withTraceContext } from '../telemetry/jobs.ts';
import type {
  EnqueueLongOptions, EnqueueOptions, FastTaskHandler, JobSpec, JobsApi, JobsDescription, LongTaskHandler, LongTaskOptions, ScheduleOptions,
} from './types.ts';

export type * from './types.ts';

const PGBOSS_SCHEMA = 'pgboss';

/**
 * Installs both libraries' schemas, the queue wake-up trigger and the tenant
 * role's grants over them without starting either library (the test template:
 * every copy of it then finds them current, and prepare() only checks).
 * Starting pg-boss here would copy its scheduling state too.
 */
export async function installJobSchemas(pool: pg.Pool): Promise<void> {
  const [{ Logger, runMigrations }, { getConstructionPlans }] = await Promise.all([graphileWorker(), pgBoss()]);
  await runMigrations({ pgPool: pool, logger: new Logger(() => () => {}) });
  await pool.query(getConstructionPlans(PGBOSS_SCHEMA));
  if (await installQueueWakeup(pool, { warn: () => {} })) await grantTenantRole(pool, ['public']);
  await grantTenantQueueRole(pool);
}

// Both libraries load when a process first prepares or starts its queues (a
// CLI command that never enqueues a long job loads neither).
const graphileWorker = () => import('graphile-worker');
const pgBoss = () => import('pg-boss');

interface JobServiceOptions {
  pool: pg.Pool;
  connectionString: string;
  logger: Logger;
  pollIntervalMs: number;
  concurrency: number;
  /** Fast jobs claimed per query (1: one at a time). */
  localQueueSize: number;
  shutdownTimeoutMs: number;
  /** A worker without a heartbeat for this long is dead and its job locks are released. */
  workerStaleSeconds: number;
  /** pg-boss's supervision: long jobs past their expiry or heartbeat are failed (and retried) this often. */
  superviseIntervalSeconds: number;
  /** PGlite cannot run prepared statements across its shared session; only this process uses it. */
  embedded: boolean;
}

interface LongTask {
  handler: LongTaskHandler;
  options: LongTaskOptions;
}

export interface JobCount {
  queue: string;
  state: string;
  count: number;
}

/**
 * pg-boss's own timer at a long job's expiry fails the job (a retry may
 * start) and aborts its signal. This backstop fires a little after it, never
 * first: a handler that stopped at the very instant of the expiry could
 * otherwise return before pg-boss's timer, and its job count as completed.
 */
const EXPIRY_BACKSTOP_GRACE_MS = 1000;

/** How long starting waits for graphile-worker's LISTEN connection before going on without it (it keeps retrying). */
const LISTEN_WAIT_MS = 10_000;

/** Aborts shortly after a long job's expiry, should pg-boss not have aborted it. */
function expirySignal(expireInSeconds: number | undefined): AbortSignal | undefined {
  return expireInSeconds && expireInSeconds > 0 ? AbortSignal.timeout(expireInSeconds * 1000 + EXPIRY_BACKSTOP_GRACE_MS) : undefined;
}

export class JobService implements JobsApi {
  private readonly fastTasks = new Map<string, FastTaskHandler>();
  private readonly longTasks = new Map<string, LongTask>();
  private readonly pendingSchedules: (() => Promise<void>)[] = [];
  private boss: PgBoss | undefined;
  /** pg-boss's adapter of a kysely transaction (loaded with pg-boss by prepare()). */
  private fromKysely: typeof import('pg-boss').fromKysely | undefined;
  private runner: Runner | undefined;
  private liveness: WorkerLiveness | undefined;
  private initialized = false;
  private readonly options: JobServiceOptions;

  constructor(options: JobServiceOptions) {
    this.options = options;
  }

  /** Installs both libraries' schemas; enqueueing works from here on. */
  async prepare(): Promise<void> {
    const [{ runMigrations }, { PgBoss, fromKysely }] = await Promise.all([graphileWorker(), pgBoss()]);
    this.fromKysely = fromKysely;
    await runMigrations({ pgPool: this.options.pool, logger: await this.workerLogger() });
    // A new trigger function in public: the grants the migrations' run applied are stale.
    if (await installQueueWakeup(this.options.pool, this.options.logger)) await grantTenantRole(this.options.pool, ['public']);
    this.boss = new PgBoss({
      connectionString: this.options.connectionString,
      max: 4,
      schema: PGBOSS_SCHEMA,
      // Long jobs start as soon as their enqueueing commits (a NOTIFY, sent by
      // the queues' `notify` below) instead of at the next poll, ≥ 0.5 s away.
      // PGlite delivers no NOTIFY across connections: polling alone there.
      useListenNotify: !this.options.embedded,
      superviseIntervalSeconds: this.options.superviseIntervalSeconds,
      monitorIntervalSeconds: this.options.superviseIntervalSeconds,
    });
    this.boss.on('error', (err) => this.options.logger.error({ err }, 'pg-boss error'));
    await this.boss.start();
    await grantTenantQueueRole(this.options.pool);
  }

  defineTask(name: string, handler: FastTaskHandler): void {
    if (this.initialized) throw new Error(`task ${name} defined after the job service was initialized`);
    if (this.fastTasks.has(name)) throw new Error(`task ${name} is already defined`);
    this.fastTasks.set(name, handler);
  }

  defineLongTask(name: string, handler: LongTaskHandler, options: LongTaskOptions = {}): void {
    if (this.initialized) throw new Error(`task ${name} defined after the job service was initialized`);
    if (this.longTasks.has(name)) throw new Error(`task ${name} is already defined`);
    this.longTasks.set(name, { handler, options });
  }

  /** One job: a batch of one (add_job with a key is add_jobs of one spec in graphile-worker too). */
  async enqueue(name: string, payload: Record<string, unknown>, options: EnqueueOptions = {}): Promise<void> {
    const { trx, ...spec } = options;
    await this.enqueueMany([{ name, payload, ...spec }], trx);
  }

  async enqueueMany(jobs: JobSpec[], trx?: Transaction<Database>, options: { alongside?: OperationNodeSource[] } = {}): Promise<void> {
    const alongside = options.alongside ?? [];
    if (alongside.length > 0 && !trx) throw new Error('enqueueMany: queries alongside need the transaction they belong to');
    if (jobs.length === 0 && alongside.length === 0) return;
    // add_jobs refuses one key twice in a call ("cannot affect row a second time").
    const keyed = new Map<string, number>();
    jobs.forEach((job, index) => { if (job.jobKey !== undefined) keyed.set(job.jobKey, index); });
    const specs = jobs
      .filter((job, index) => job.jobKey === undefined || keyed.get(job.jobKey) === index)
      .map((job) => ({
        identifier: job.name,
        payload: withTraceContext(job.payload),
        queue_name: job.queue ?? null,
        run_at: job.runAt?.toISOString() ?? null,
        max_attempts: job.maxAttempts ?? null,
        job_key: job.jobKey ?? null,
        priority: job.priority ?? null,
      }));
    if (alongside.length === 0) return this.execute('SELECT platform_add_jobs($1::json)', [JSON.stringify(specs)], trx);
    // Data-modifying CTEs run whether or not they are read.
    const ctes = sql.join(alongside.map((query, i) => sql`${sql.id(`alongside_${i}`)} AS (${query})`));
    await sql`WITH ${ctes} SELECT ${specs.length > 0 ? sql`platform_add_jobs(${JSON.stringify(specs)}::json)` : sql`1`}`.execute(trx!);
  }

  async removeJob(jobKey: string, trx?: Transaction<Database>): Promise<void> {
    await this.execute('SELECT platform_remove_job($1)', [jobKey], trx);
  }

  private async execute(text: string, params: unknown[], trx?: Transaction<Database>): Promise<void> {
    if (trx) await trx.executeQuery(CompiledQuery.raw(text, params));
    else await this.options.pool.query(text, params);
  }

  async enqueueLong(name: string, data: Record<string, unknown>, options: EnqueueLongOptions = {}): Promise<string | null> {
    if (!this.longTasks.has(name)) throw new Error(`unknown long task ${name}`);
    // pg-boss's own pool: inside a transaction, pass it (options.trx).
    if (!options.trx) checkSecondConnection(`A pg-boss send (${name})`);
    return this.requireBoss().send(name, withTraceContext(data), {
      startAfter: options.startAfter,
      singletonKey: options.singletonKey,
      ...(options.group ? { group: { id: options.group } } : {}),
      ...(options.trx ? { db: this.fromKysely!(options.trx) } : {}),
    });
  }

  async schedule(task: string, key: string, cron: string, options: ScheduleOptions = {}): Promise<void> {
    checkSecondConnection(`A pg-boss schedule (${task})`);
    const apply = () => this.requireBoss().schedule(task, cron, options.data ?? {}, {
      tz: options.tz ?? 'UTC', key, ...(options.group ? { group: { id: options.group } } : {}),
    });
    if (this.initialized) await apply();
    else this.pendingSchedules.push(apply);
  }

  async unschedule(task: string, key: string): Promise<void> {
    checkSecondConnection(`A pg-boss unschedule (${task})`);
    await this.requireBoss().unschedule(task, key);
  }

  /** Creates the long tasks' queues and the schedules declared so far; no task may be defined after. */
  async initialize(): Promise<void> {
    if (this.initialized) return;
    const declared = [...this.longTasks].map(([name, task]) => ({ name, policy: this.policyOf(name, task.options) }));
    await declareLongQueues(this.requireBoss(), this.options.pool, PGBOSS_SCHEMA, declared);
    await grantTenantQueueRole(this.options.pool);
    this.initialized = true;
    for (const apply of this.pendingSchedules.splice(0)) await apply();
  }

  /** Starts the workers of both queues. */
  async start(): Promise<void> {
    await this.initialize();
    const boss = this.requireBoss();
    for (const [name, task] of this.longTasks) await this.workLongTask(boss, name, task);
    if (this.fastTasks.size > 0) {
      const liveness = new WorkerLiveness(this.options.pool, this.options.logger, { staleSeconds: this.options.workerStaleSeconds });
      // On the embedded default no other process can use the database: every
      // lock left in it belongs to this process's previous life.
      if (this.options.embedded) await liveness.sweep(0);
      const events: WorkerEvents = new EventEmitter();
      events.on('worker:create', ({ worker }) => liveness.track(worker.workerId));
      this.liveness = liveness;
      const { run } = await graphileWorker();
      // graphile-worker's run() resolves before its LISTEN connection is up; a
      // job enqueued in between would wait for the next poll. Started means listening.
      const listening = once(events, 'pool:listen:success', { signal: AbortSignal.timeout(LISTEN_WAIT_MS) }).then(() => true, () => false);
      this.runner = await run({
        events,
        pgPool: this.options.pool,
        taskList: this.taskList(),
        concurrency: this.options.concurrency,
        pollInterval: this.options.pollIntervalMs,
        noHandleSignals: true,
        noPreparedStatements: this.options.embedded,
        logger: await this.workerLogger(),
        // Unbatched (the default, -1), graphile-worker does not await a job's
        // completion: a job that finishes during stop() is left locked once the
        // pool closes (and runs again only after its 4 h lock expiry). Batched,
        // even with no delay, completions are flushed before stop() resolves.
        // The local queue claims up to that many jobs per query and hands
        // them to workers as they free up: under load, one claim per batch
        // instead of one per job (the claim scans past the completed jobs'
        // dead rows, so it is the costliest statement a busy queue runs).
        preset: {
          worker: {
            completeJobBatchDelay: 0, failJobBatchDelay: 0,
            ...(this.options.localQueueSize > 1 ? { localQueue: { size: this.options.localQueueSize } } : {}),
          },
        },
      });
      liveness.start();
      if (!(await listening)) this.options.logger.warn(`fast jobs: no LISTEN connection after ${LISTEN_WAIT_MS} ms; jobs start at the next poll until it is up`);
    }
  }

  /** Stops taking jobs and waits for the ones in flight (up to the shutdown timeout). */
  async stop(): Promise<void> {
    const runner = this.runner;
    this.runner = undefined;
    await Promise.all([
      runner?.stop().then(() => this.liveness?.stop()),
      this.boss?.stop({ graceful: true, timeout: this.options.shutdownTimeoutMs, close: true }),
    ]);
    this.boss = undefined;
    this.liveness = undefined;
  }

  describe(): JobsDescription {
    return {
      started: this.boss !== undefined && (this.runner !== undefined || this.fastTasks.size === 0),
      fast: { concurrency: this.options.concurrency, pollIntervalMs: this.options.pollIntervalMs, tasks: [...this.fastTasks.keys()] },
      long: [...this.longTasks].map(([name, task]) => ({
        name, concurrency: task.options.concurrency ?? 1, groupConcurrency: task.options.groupConcurrency ?? null,
        retryLimit: task.options.retryLimit ?? 3, expireInSeconds: task.options.expireInSeconds ?? 900,
      })),
    };
  }

  /** Job counts by queue (task) and state, for the metrics endpoint. */
  async counts(): Promise<JobCount[]> {
    const counts: JobCount[] = [];
    const { rows } = await this.options.pool.query<{ task: string; state: string; count: number }>(`
      SELECT task_identifier AS task,
        CASE WHEN locked_at IS NOT NULL THEN 'active'
             WHEN attempts >= max_attempts THEN 'failed'
             WHEN run_at > now() THEN 'deferred' ELSE 'queued' END AS state,
        count(*)::int AS count
      FROM graphile_worker.jobs GROUP BY 1, 2`);
    counts.push(...rows.map((row) => ({ queue: row.task, state: row.state, count: row.count })));
    if (this.boss) {
      for (const queue of await this.boss.getQueues()) {
        counts.push(
          { queue: queue.name, state: 'queued', count: queue.queuedCount },
          { queue: queue.name, state: 'active', count: queue.activeCount },
          { queue: queue.name, state: 'failed', count: queue.failedCount },
        );
      }
    }
    return counts;
  }

  /**
   * A task's failed jobs go to `${name}.dead` unless it opts out
   * (deadLetter: false); a task that is itself another task's dead letter
   * (`${other}.dead`) has none unless it asks (no `*.dead.dead` queues).
   */
  private deadLetterOf(name: string, options: LongTaskOptions): string | null {
    const isDeadLetter = name.endsWith('.dead') && this.longTasks.has(name.slice(0, -'.dead'.length));
    return (options.deadLetter ?? !isDeadLetter) ? `${name}.dead` : null;
  }

  /** A long task's queue policy as the code declares it: every field is set, so the queue's row is compared whole. */
  private policyOf(name: string, options: LongTaskOptions): QueuePolicy {
    return {
      notify: !this.options.embedded,
      retryLimit: options.retryLimit ?? 3,
      retryDelay: options.retryDelaySeconds ?? 5,
      retryBackoff: options.retryBackoff ?? true,
      expireInSeconds: options.expireInSeconds ?? 900,
      heartbeatSeconds: options.heartbeatSeconds || null,
      deadLetter: this.deadLetterOf(name, options),
    };
  }

  private async workLongTask(boss: PgBoss, name: string, task: LongTask): Promise<void> {
    await boss.work(
      name,
      {
        localConcurrency: task.options.concurrency ?? 1,
        ...(task.options.groupConcurrency ? { groupConcurrency: task.options.groupConcurrency } : {}),
        pollingIntervalSeconds: this.longPollSeconds(),
        // NOTIFY wakes a worker for a new job; the poll stays as often as without
        // it (pg-boss would stretch it to 30 s) for what sends none: retries coming due, delayed starts.
        notifyPollingIntervalSeconds: this.longPollSeconds(),
        includeMetadata: true,
      },
      async ([job]) => {
        // pg-boss aborts job.signal when the handler outlives expireInSeconds (the
        // job is failed and may be retried), when the worker loses the job's claim
        // and on shutdown: the handler must stop then, or its retry races it. Our
        // own timer just after the job's expiry stands in should the library not abort.
        const signals = [(job as { signal?: AbortSignal }).signal, expirySignal(job.expireInSeconds)];
        const signal = AbortSignal.any(signals.filter((s): s is AbortSignal => s !== undefined));
        const attempt = job.retryCount + 1;
        return runTracedJob(name, 'long', job.data, attempt, (data) => task.handler(data, { id: job.id, attempt, signal }));
      },
    );
  }

  private longPollSeconds(): number {
    return Math.max(0.5, this.options.pollIntervalMs / 1000);
  }

  private taskList(): TaskList {
    const list: TaskList = {};
    for (const [name, handler] of this.fastTasks) {
      list[name] = (payload, helpers) =>
        runTracedJob(name, 'fast', payload, helpers.job.attempts, (data) => handler(data, {
          attempt: helpers.job.attempts, signal: helpers.abortSignal ?? new AbortController().signal, jobKey: helpers.job.key ?? undefined,
        }));
    }
    return list;
  }

  private requireBoss(): PgBoss {
    if (!this.boss) throw new Error('the job service is not prepared');
    return this.boss;
  }

  /** graphile-worker's logger, bridged to pino. */
  private async workerLogger(): Promise<WorkerLogger> {
    const log = this.options.logger;
    const { Logger } = await graphileWorker();
    return new Logger(() => (level, message, meta) => {
      const method = level === 'error' ? 'error' : level === 'warning' ? 'warn' : 'debug';
      log[method]({ meta, component: 'graphile-worker' }, message);
    });
  }
}
