// Worker liveness for graphile-worker, which has none: a job locked by a
// worker whose process died stays locked (and its named queue with it, e.g. a
// tenant's event dispatcher) until graphile-worker's 4-hour lock expiry. Each
// process heartbeats its workers' ids; every process sweeps: the locks of a
// worker that has no fresh heartbeat (dead, or from a process that never
// registered it) and that are older than the stale threshold are released, so
// the job runs again in a live process. A live worker's long job is never
// taken from it: its heartbeat keeps it. Timing runs on the database's clock.
import type pg from 'pg';
import type { Logger } from 'pino';

export interface LivenessOptions {
  /** A worker without a heartbeat for this long is dead. */
  staleSeconds: number;
}

const SWEEP = `
  WITH forgotten AS (
    DELETE FROM platform_job_workers
    WHERE heartbeat_at < now() - make_interval(secs => $1) RETURNING worker_id
  ), dead AS (
    SELECT DISTINCT locked_by AS worker_id FROM graphile_worker._private_jobs j
    WHERE locked_by IS NOT NULL AND locked_at < now() - make_interval(secs => $1)
      AND NOT EXISTS (SELECT 1 FROM platform_job_workers w
                      WHERE w.worker_id = j.locked_by AND w.heartbeat_at >= now() - make_interval(secs => $1))
    UNION
    SELECT DISTINCT locked_by FROM graphile_worker._private_job_queues q
    WHERE locked_by IS NOT NULL AND locked_at < now() - make_interval(secs => $1)
      AND NOT EXISTS (SELECT 1 FROM platform_job_workers w
                      WHERE w.worker_id = q.locked_by AND w.heartbeat_at >= now() - make_interval(secs => $1))
  )
  SELECT array_agg(worker_id) AS released, graphile_worker.force_unlock_workers(coalesce(array_agg(worker_id), '{}'))
  FROM dead, (SELECT count(*) FROM forgotten) AS f`;

export class WorkerLiveness {
  private readonly workers = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> = Promise.resolve();
  private readonly pool: pg.Pool;
  private readonly logger: Logger;
  private readonly options: LivenessOptions;

  constructor(pool: pg.Pool, logger: Logger, options: LivenessOptions) {
    this.pool = pool;
    this.logger = logger;
    this.options = options;
  }

  /** Called as graphile-worker creates each worker of this process, before it takes a job. */
  track(workerId: string): void {
    this.workers.add(workerId);
  }

  /**
   * Releases the locks of dead workers. `staleSeconds` 0 releases every lock
   * not held by this process's workers: only right for a database no other
   * process can use (the embedded default), before this process's workers start.
   */
  async sweep(staleSeconds = this.options.staleSeconds): Promise<string[]> {
    const { rows } = await this.pool.query<{ released: string[] | null }>(SWEEP, [staleSeconds]);
    const released = rows[0]?.released ?? [];
    if (released.length > 0) this.logger.warn({ workers: released }, 'released the job locks of dead workers');
    return released;
  }

  /** Heartbeats now and then every quarter of the stale threshold (at most every 15 s), sweeping each time. */
  start(): void {
    const everyMs = Math.min(15_000, (this.options.staleSeconds * 1000) / 4);
    this.beating = this.beat();
    this.timer = setInterval(() => {
      this.beating = this.beating.then(() => this.beat());
    }, everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.beating;
    if (this.workers.size > 0) {
      await this.pool.query('DELETE FROM platform_job_workers WHERE worker_id = ANY($1::text[])', [[...this.workers]]).catch(() => {});
    }
  }

  private async beat(): Promise<void> {
    try {
      if (this.workers.size > 0) {
        await this.pool.query(
          `INSERT INTO platform_job_workers (worker_id) SELECT unnest($1::text[])
           ON CONFLICT (worker_id) DO UPDATE SET heartbeat_at = now()`,
          [[...this.workers]],
        );
      }
      await this.sweep();
    } catch (err) {
      // The database is briefly away: the next beat tries again.
      this.logger.warn({ err }, 'job worker heartbeat failed');
    }
  }
}
