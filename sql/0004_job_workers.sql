-- Liveness of graphile-worker workers: each process heartbeats the workers it
-- runs, so the locks of a process that died (SIGKILL, a lost machine) are
-- released within JOBS_WORKER_STALE_SECONDS instead of graphile-worker's
-- 4-hour lock expiry. Global (not tenant-owned): it describes processes.
CREATE TABLE platform_job_workers (
  worker_id text PRIMARY KEY,
  heartbeat_at timestamptz NOT NULL DEFAULT now()
);
