-- Transform schedules move to core's schedules table (sql/0006_schedules.sql
-- of core, docs/decisions/core-schedules.md) as kind
-- pipelines-transforms.transform, subject the transform id: every schedule
-- keeps its settings, paused state, next run and last outcome. Their timers
-- are re-keyed: the old jobs (task pipelines-transforms.schedule_fire) are
-- removed and core's armed for the same instants. A deleted transform takes
-- its schedule with it, as the old foreign key did.
ALTER TABLE schedules NO FORCE ROW LEVEL SECURITY;
ALTER TABLE transform_schedules NO FORCE ROW LEVEL SECURITY;
INSERT INTO schedules (tenant_id, kind, subject, cron, timezone, missed_policy, paused, next_run_at, last_run_at, last_outcome, last_run_id, created_at, updated_at)
SELECT tenant_id, 'pipelines-transforms.transform', transform_id::text, cron, timezone, missed_run_policy, paused, next_run_at, last_run_at, last_outcome,
  last_run_id::text, created_at, updated_at
FROM transform_schedules;
SELECT platform_remove_jobs_by_key_prefix('pipelines-transforms:schedule:');
SELECT platform_arm_schedule_timers('pipelines-transforms.transform');
ALTER TABLE schedules FORCE ROW LEVEL SECURITY;
DROP TABLE transform_schedules;

CREATE FUNCTION transforms_drop_schedule() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM schedules WHERE tenant_id = OLD.tenant_id AND kind = 'pipelines-transforms.transform' AND subject = OLD.id::text;
  RETURN OLD;
END $$;
CREATE TRIGGER transforms_drop_schedule AFTER DELETE ON transforms
  FOR EACH ROW EXECUTE FUNCTION transforms_drop_schedule();
