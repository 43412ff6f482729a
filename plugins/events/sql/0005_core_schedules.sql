-- The timers of scheduled triggers move to core's schedules table
-- (sql/0006_schedules.sql of core, docs/decisions/core-schedules.md) as kind
-- events.trigger, subject the trigger's name: every active scheduled trigger
-- keeps the occurrence it is armed for (next_fire_at, which stays for the
-- trigger's view) and its missed_fire_policy. Their timers are re-keyed: the
-- old jobs (task events.schedule_fire) are removed and core's armed for the
-- same instants.
ALTER TABLE schedules NO FORCE ROW LEVEL SECURITY;
ALTER TABLE triggers NO FORCE ROW LEVEL SECURITY;
INSERT INTO schedules (tenant_id, kind, subject, cron, timezone, missed_policy, paused, next_run_at, last_run_at)
SELECT tenant_id, 'events.trigger', name, schedule_config->>'cron', coalesce(schedule_config->>'timezone', 'UTC'),
  coalesce(schedule_config->>'missed_fire_policy', 'skip'), false, next_fire_at, last_fired_at
FROM triggers WHERE kind = 'scheduled' AND active AND next_fire_at IS NOT NULL;
SELECT platform_remove_jobs_by_key_prefix('events:schedule:');
SELECT platform_arm_schedule_timers('events.trigger');
ALTER TABLE triggers FORCE ROW LEVEL SECURITY;
ALTER TABLE schedules FORCE ROW LEVEL SECURITY;

CREATE FUNCTION triggers_drop_schedule() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM schedules WHERE tenant_id = OLD.tenant_id AND kind = 'events.trigger' AND subject = OLD.name;
  RETURN OLD;
END $$;
CREATE TRIGGER triggers_drop_schedule AFTER DELETE ON triggers
  FOR EACH ROW EXECUTE FUNCTION triggers_drop_schedule();
