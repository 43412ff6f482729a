-- Schedules of every plugin (core/schedules/, docs/decisions/core-schedules.md):
-- one row per (tenant, kind, subject), a 5-field cron in an IANA zone with a
-- missed-run policy. Each unpaused row has one timer job (graphile-worker,
-- task core.schedule_fire, keyed schedule:<kind>:<tenant>:<subject>) armed for
-- next_run_at, replaced in the same transaction as the row. `kind` names the
-- plugin's use (declared by core.schedules.define); `subject` is the plugin's
-- id of what is scheduled (a source, a transform, a pipeline, a trigger).
CREATE TABLE schedules (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (char_length(kind) BETWEEN 1 AND 100),
  subject text NOT NULL CHECK (char_length(subject) BETWEEN 1 AND 200),
  cron text NOT NULL CHECK (char_length(cron) <= 200),
  timezone text NOT NULL DEFAULT 'UTC',
  missed_policy text NOT NULL DEFAULT 'skip' CHECK (missed_policy IN ('skip', 'catch_up_once')),
  paused boolean NOT NULL DEFAULT false,
  data jsonb NOT NULL DEFAULT '{}',
  next_run_at timestamptz,
  last_run_at timestamptz,
  last_outcome text,
  last_run_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, kind, subject)
);
CREATE INDEX schedules_kind ON schedules (kind, tenant_id);
SELECT platform_enable_tenant_rls('schedules');

-- Arms the timer job of every unpaused schedule of a kind (a plugin's
-- migration that moves its schedules here calls it, after removing its old
-- timer jobs). Nothing to do before graphile-worker's schema exists (a fresh
-- database: its schedules are all new).
CREATE FUNCTION platform_arm_schedule_timers(p_kind text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF to_regnamespace('graphile_worker') IS NULL THEN RETURN; END IF;
  PERFORM graphile_worker.add_job(
    identifier => 'core.schedule_fire',
    payload => json_build_object('tenant_id', s.tenant_id, 'kind', s.kind, 'subject', s.subject,
      'scheduled_time', to_char(s.next_run_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
    run_at => s.next_run_at,
    job_key => 'schedule:' || s.kind || ':' || s.tenant_id || ':' || s.subject)
  FROM schedules s WHERE s.kind = p_kind AND NOT s.paused AND s.next_run_at IS NOT NULL;
END $$;

-- Removes graphile-worker jobs by key (old timers of a plugin's own schedules).
CREATE FUNCTION platform_remove_jobs_by_key_prefix(p_prefix text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF to_regnamespace('graphile_worker') IS NULL THEN RETURN; END IF;
  PERFORM graphile_worker.remove_job(j.key) FROM graphile_worker._private_jobs j WHERE starts_with(j.key, p_prefix);
END $$;
