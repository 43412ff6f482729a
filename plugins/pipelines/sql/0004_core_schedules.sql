-- The schedules of active pipelines move to core's schedules table
-- (sql/0006_schedules.sql of core, docs/decisions/core-schedules.md) as kind
-- pipelines.pipeline, subject the pipeline id, missed-run policy
-- catch_up_once, armed for the occurrence the pipeline's next_run_at shows
-- (which stays, for the pipeline's view). Their timers are re-keyed: the old
-- jobs (task pipelines.pipeline_schedule_fire) are removed and core's armed
-- for the same instants.
ALTER TABLE schedules NO FORCE ROW LEVEL SECURITY;
ALTER TABLE pipelines NO FORCE ROW LEVEL SECURITY;
INSERT INTO schedules (tenant_id, kind, subject, cron, timezone, missed_policy, paused, next_run_at)
SELECT tenant_id, 'pipelines.pipeline', id::text, schedule_cron, schedule_timezone, 'catch_up_once', false, next_run_at
FROM pipelines WHERE state = 'active' AND schedule_cron IS NOT NULL AND next_run_at IS NOT NULL;
SELECT platform_remove_jobs_by_key_prefix('pipelines:pipeline-schedule:');
SELECT platform_arm_schedule_timers('pipelines.pipeline');
ALTER TABLE pipelines FORCE ROW LEVEL SECURITY;
ALTER TABLE schedules FORCE ROW LEVEL SECURITY;

CREATE FUNCTION pipelines_drop_schedule() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM schedules WHERE tenant_id = OLD.tenant_id AND kind = 'pipelines.pipeline' AND subject = OLD.id::text;
  RETURN OLD;
END $$;
CREATE TRIGGER pipelines_drop_schedule AFTER DELETE ON pipelines
  FOR EACH ROW EXECUTE FUNCTION pipelines_drop_schedule();
