-- Source schedules move to core's schedules table (sql/0006_schedules.sql of
-- core, docs/decisions/core-schedules.md) as kind pipelines-sources.source,
-- subject the source id: every schedule keeps its settings, paused state, next
-- run and last outcome. Their timers are re-keyed: the old jobs (task
-- pipelines.schedule_fire) are removed and core's armed for the same instants.
-- A deleted source takes its schedule with it, as the old foreign key did.
ALTER TABLE schedules NO FORCE ROW LEVEL SECURITY;
ALTER TABLE pipeline_source_schedules NO FORCE ROW LEVEL SECURITY;
INSERT INTO schedules (tenant_id, kind, subject, cron, timezone, missed_policy, paused, next_run_at, last_run_at, last_outcome, last_run_id, created_at, updated_at)
SELECT tenant_id, 'pipelines-sources.source', source_id::text, cron, timezone, missed_run_policy, paused, next_run_at, last_run_at, last_outcome,
  last_sync_run_id::text, created_at, updated_at
FROM pipeline_source_schedules;
SELECT platform_remove_jobs_by_key_prefix('pipelines:schedule:');
SELECT platform_arm_schedule_timers('pipelines-sources.source');
ALTER TABLE schedules FORCE ROW LEVEL SECURITY;
DROP TABLE pipeline_source_schedules;

CREATE FUNCTION pipeline_sources_drop_schedule() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM schedules WHERE tenant_id = OLD.tenant_id AND kind = 'pipelines-sources.source' AND subject = OLD.id::text;
  RETURN OLD;
END $$;
CREATE TRIGGER pipeline_sources_drop_schedule AFTER DELETE ON pipeline_sources
  FOR EACH ROW EXECUTE FUNCTION pipeline_sources_drop_schedule();
