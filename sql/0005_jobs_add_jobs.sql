-- Batch enqueue of fast jobs: one call adds many graphile-worker jobs (a
-- dispatch batch's workflow starts) instead of a round trip each. Like
-- platform_add_job (0003), a SECURITY DEFINER wrapper, so that tenant
-- transactions can enqueue without rights on graphile-worker's tables.
-- p_specs is a JSON array of graphile_worker.job_spec objects
-- ({identifier, payload, queue_name?, run_at?, max_attempts?, job_key?});
-- a job key replaces a pending job with that key (add_job's 'replace' mode).
-- The graphile_worker schema is installed after our migrations; plpgsql
-- resolves it when called.
CREATE FUNCTION platform_add_jobs(p_specs json) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
BEGIN
  PERFORM graphile_worker.add_jobs(ARRAY(
    SELECT s FROM json_populate_recordset(NULL::graphile_worker.job_spec, p_specs) AS s
  ));
END $$;
