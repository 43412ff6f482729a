-- Fast jobs are enqueued inside tenant transactions, which run as
-- platform_tenant. graphile-worker's private tables have row-level security
-- with no policy for other roles, so enqueueing goes through these wrappers,
-- which run as their owner (the role that owns the queue's schema).
-- The graphile_worker schema is installed after our migrations; plpgsql
-- resolves it when called.
CREATE FUNCTION platform_add_job(
  p_identifier text, p_payload json, p_queue_name text, p_run_at timestamptz,
  p_max_attempts int, p_job_key text, p_job_key_mode text
) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
BEGIN
  PERFORM graphile_worker.add_job(
    identifier => p_identifier, payload => p_payload, queue_name => p_queue_name, run_at => p_run_at,
    max_attempts => p_max_attempts, job_key => p_job_key, job_key_mode => p_job_key_mode);
END $$;

CREATE FUNCTION platform_remove_job(p_job_key text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
BEGIN
  PERFORM graphile_worker.remove_job(p_job_key);
END $$;
