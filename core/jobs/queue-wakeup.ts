// graphile-worker runs a named queue's jobs one at a time: a job added while
// its queue is locked can be claimed only once the running job's completion
// commits, and nothing wakes the idle workers then, so it waits for their
// next poll (JOBS_POLL_INTERVAL_MS, 1 s by default). A tenant's event
// dispatcher meets this on nearly every hand-over: an event emitted while the
// previous dispatch job is finishing queues the next one behind it (measured:
// emit → workflow started p99 ≈ 790 ms instead of ≈ 25 ms). This trigger on
// graphile-worker's queue table NOTIFYs its own "jobs:insert" channel when a
// queue is unlocked, in the completing transaction, so a worker looks again
// as soon as it commits. Latency only: without it, jobs still run at the next
// poll (and on PGlite, with no NOTIFY, they do).
import type pg from 'pg';
import type { Logger } from 'pino';

const INSTALL = `
  CREATE OR REPLACE FUNCTION platform_job_queue_unlocked() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    -- The payload graphile-worker's own add_job sends: nudge one worker.
    PERFORM pg_notify('jobs:insert', '{"r":' || random()::text || ',"count":1}');
    RETURN NULL;
  END $$;
  CREATE OR REPLACE TRIGGER platform_job_queue_unlocked
    AFTER UPDATE OF locked_at ON graphile_worker._private_job_queues
    FOR EACH ROW WHEN (OLD.locked_at IS NOT NULL AND NEW.locked_at IS NULL)
    EXECUTE FUNCTION platform_job_queue_unlocked();`;

const INSTALLED = `
  SELECT 1 FROM pg_trigger
  WHERE tgname = 'platform_job_queue_unlocked' AND tgrelid = 'graphile_worker._private_job_queues'::regclass`;

/**
 * Installs the wake-up trigger (after graphile-worker's migrations, which own
 * the table); idempotent. Returns whether it installed it now (its function is
 * a new object of the public schema, which the tenant role's grants cover).
 */
export async function installQueueWakeup(pool: pg.Pool, logger: Pick<Logger, 'warn'>): Promise<boolean> {
  if ((await pool.query(INSTALLED)).rowCount) return false;
  try {
    // One simple-protocol query: both statements commit together or not at all.
    await pool.query(INSTALL);
    return true;
  } catch (err) {
    // Two processes starting at once: the other one installed it.
    if ((await pool.query(INSTALLED)).rowCount) return false;
    logger.warn({ err }, 'jobs: could not install the queue wake-up trigger; queued jobs wait for the next poll');
    return false;
  }
}
