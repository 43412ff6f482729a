// emit_event in a step that is retried after its emit committed (the step's
// result could not be recorded) names the same event id on every attempt, so
// the retry emits no duplicate. Runs on the default manifest: the real events
// plugin's stream, not the probe backend.
import t from 'tap';
import { startTestPlatform, tenantWithAdmin, until } from 'agent-platform/sdk/testing';

t.test('a retried emit_event step emits one event', async (t) => {
  const tp = await startTestPlatform(t, { listen: true, env: { WORKFLOWS_ACTION_ATTEMPTS: '3' } });
  const a = await tenantWithAdmin(tp, 'emit-retry');
  const pool = tp.platform.core.pool;
  // A transient failure once the event exists: the first attempt's result is not
  // recorded (its transaction fails), so the step job runs again. A sequence is
  // not transactional, so only the first such update fails.
  await pool.query(`
    CREATE SEQUENCE probe_fail_once;
    CREATE FUNCTION probe_fail_after_emit() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM events WHERE tenant_id = NEW.tenant_id AND type = 'probe.retried')
         AND nextval('probe_fail_once') = 1 THEN
        RAISE EXCEPTION 'transient failure after the emit';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER probe_fail_after_emit BEFORE UPDATE ON workflow_executions
      FOR EACH ROW EXECUTE FUNCTION probe_fail_after_emit();`);

  const created = await tp.request({
    method: 'POST', url: '/api/admin/workflows', token: a.token,
    payload: { name: 'announce', steps: [{ id: 'emit', type: 'ACTION', handler: 'emit_event', arguments: { type: 'probe.retried', data: { n: 1 } }, output_key: 'event' }] },
  });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const started = await tp.request({ method: 'POST', url: '/api/admin/workflows/announce/execute', token: a.token, payload: { inputs: {} } });
  t.equal(started.status, 202);
  const id = started.body.execution_id;
  const done = await until(async () => {
    const execution = await tp.request({ url: `/api/admin/executions/${id}`, token: a.token });
    return ['completed', 'failed'].includes(execution.body.status) ? execution.body : undefined;
  }, 'the execution to finish', 30_000);
  t.equal(done.status, 'completed');
  const { rows: [{ failures }] } = await pool.query(`SELECT last_value::int AS failures, is_called FROM probe_fail_once`);
  t.ok(failures >= 1, 'the step failed once after its emit and was retried');
  const { rows } = await pool.query(`SELECT id FROM events WHERE tenant_id = 'emit-retry' AND type = 'probe.retried'`);
  t.equal(rows.length, 1, 'one event, not one per attempt');
  t.equal(rows[0]?.id, done.context.event.event_id, 'the execution names the event that exists');
});
