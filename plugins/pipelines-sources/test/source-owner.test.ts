// A platform_function source calls its function for a person: its creator (or
// whoever last changed its configuration), with that person's roles in the
// tenant at each call, never as a platform service holding every role. A
// pipeline editor cannot reach an admin's functions through a source; an admin
// demoted after creating one stops the source at its next sync.
import t from 'tap';
import { until, type TestPlatform } from 'agent-platform/sdk/testing';
import { sourcesPlatform, stored, userToken } from './helpers.ts';

async function discovery(tp: TestPlatform, token: string, sourceId: string) {
  const asked = await tp.request({ method: 'POST', url: '/api/v1/sources/discover', token, tenant: 'acme', payload: { source_id: sourceId, apply: true } });
  return until(async () => {
    const status = (await tp.request({ url: `/api/v1/sources/discover/status/${asked.body.workflow_id}`, token, tenant: 'acme' })).body;
    return status.status === 'failed' || status.status === 'succeeded' ? status : undefined;
  }, 'discovery', 60_000);
}

async function sync(tp: TestPlatform, token: string, sourceId: string) {
  const started = await tp.request({ method: 'POST', url: `/api/v1/sources/${sourceId}/sync`, token, tenant: 'acme' });
  if (started.status !== 202) throw new Error(JSON.stringify(started.body));
  return until(async () => {
    const status = (await tp.request({ url: `/api/v1/sources/${sourceId}/sync/status`, token, tenant: 'acme' })).body;
    return status.run?.id === started.body.sync_run_id && status.run.is_terminal ? status.run : undefined;
  }, 'the sync', 60_000);
}

async function emitted(tp: TestPlatform, type: string): Promise<number> {
  const recent = await tp.request({ url: '/api/admin/triggers/events/recent?limit=500', token: tp.adminToken, tenant: 'acme' });
  if (recent.status !== 200) throw new Error(JSON.stringify(recent.body));
  return (recent.body.items as { type: string }[]).filter((e) => e.type === type).length;
}

const emitSource = (name: string, type: string) => ({
  name, pattern_id: 'platform_function', source_config: { function: 'emit_event', arguments: { type, data: { via: 'source' } }, stream_name: 'out' },
});

t.test('a pipeline editor cannot emit events through a platform_function source', async (t) => {
  const { tp } = await sourcesPlatform(t, {}, { workers: true });
  const editor = await userToken(tp, 'eddie', ['acme'], ['pipeline_editor']);
  const call = await tp.request({ method: 'POST', url: '/api/admin/functions/emit_event/call', token: editor, tenant: 'acme', payload: { arguments: { type: 'owner.test' } } });
  t.equal(call.status, 403, 'the direct call is an admin\'s');

  const created = await tp.request({ method: 'POST', url: '/api/v1/sources', token: editor, tenant: 'acme', payload: emitSource('sneaky', 'owner.test') });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const found = await discovery(tp, editor, created.body.id);
  t.equal(found.status, 'failed');
  t.match(found.error, /^SOURCE_OWNER_FORBIDDEN: the source acts for user eddie, who may not call emit_event now: Calling emit_event needs the role "admin"/);

  // Streams as a discovery would give them, so that a sync has something to read.
  const streams = await tp.request({ method: 'POST', url: `/api/v1/sources/${created.body.id}/streams/refresh-schema`, token: editor, tenant: 'acme', payload: {
    streams: [{ name: 'out', namespace: null, schema: { type: 'object', properties: { event_id: { type: 'string' } } }, supported_sync_modes: ['full_refresh'] }],
  } });
  t.equal(streams.status, 200, JSON.stringify(streams.body));
  const run = await sync(tp, editor, created.body.id);
  t.equal(run.status, 'failed');
  t.match(run.error, /^SOURCE_OWNER_FORBIDDEN: /);
  t.equal(await emitted(tp, 'owner.test'), 0, 'no event was emitted');

  // What any member may call, an editor's source calls as before.
  const clients = await tp.request({ method: 'POST', url: '/api/v1/sources', token: editor, tenant: 'acme', payload: {
    name: 'clients', pattern_id: 'platform_function', source_config: { function: 'list_clients', records_path: 'items' },
  } });
  t.equal((await discovery(tp, editor, clients.body.id)).status, 'succeeded');
});

t.test('an admin demoted after creating a source: the next sync fails with SOURCE_OWNER_FORBIDDEN and the schedule stops', async (t) => {
  const { tp } = await sourcesPlatform(t, {}, { workers: true });
  const admin = await userToken(tp, 'ada', ['acme'], ['admin']);
  const created = await tp.request({ method: 'POST', url: '/api/v1/sources', token: admin, tenant: 'acme', payload: emitSource('pulse', 'owner.pulse') });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const sourceId = created.body.id as string;
  t.equal((await discovery(tp, admin, sourceId)).status, 'succeeded');
  const first = await sync(tp, admin, sourceId);
  t.equal(first.status, 'succeeded', first.error ?? '');
  const before = await emitted(tp, 'owner.pulse');
  t.ok(before >= 1, 'the admin\'s source emitted');
  const schedule = await tp.request({ method: 'PUT', url: `/api/v1/sources/${sourceId}/schedule`, token: admin, tenant: 'acme', payload: { cron: '0 3 * * *', timezone: 'UTC' } });
  t.equal(schedule.status, 200, JSON.stringify(schedule.body));

  // The directory now says pipeline_editor; ada's token (still saying admin) is not what counts.
  const demoted = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub: 'ada', display_name: 'ada', organizations: ['acme'], roles: ['pipeline_editor'] } });
  t.equal(demoted.status, 200, JSON.stringify(demoted.body));
  // Whoever starts the sync (here the super-admin), the call acts for the source's person.
  const run = await sync(tp, tp.adminToken, sourceId);
  t.equal(run.status, 'failed');
  t.match(run.error, /^SOURCE_OWNER_FORBIDDEN: the source acts for user ada, who may not call emit_event now/);
  t.equal(run.attempts, 1, 'a permanent refusal is not retried');
  t.equal(await emitted(tp, 'owner.pulse'), before, 'nothing more was emitted');
  const stopped = (await tp.request({ url: `/api/v1/sources/${sourceId}/schedule`, token: tp.adminToken, tenant: 'acme' })).body;
  t.match(stopped, { paused: true, next_run_at: null });
  t.match(stopped.last_outcome, /^paused: SOURCE_OWNER_FORBIDDEN: /);

  // An admin saving the configuration again owns the source's calls from then on.
  const other = await userToken(tp, 'olga', ['acme'], ['admin']);
  const saved = await tp.request({ method: 'PATCH', url: `/api/v1/sources/${sourceId}`, token: other, tenant: 'acme', payload: { source_config: emitSource('pulse', 'owner.pulse').source_config } });
  t.equal(saved.status, 200, JSON.stringify(saved.body));
  t.equal((await sync(tp, other, sourceId)).status, 'succeeded');
  t.ok(await emitted(tp, 'owner.pulse') > before);

  // A person no longer in the tenant is refused alike (the directory has no membership of it).
  await stored(tp, `UPDATE users SET organizations = organizations - 'acme' WHERE sub = 'olga'`);
  t.match((await discovery(tp, tp.adminToken, sourceId)).error, /^SOURCE_OWNER_FORBIDDEN: the source acts for user olga, who may not call emit_event now: .*no longer a member of tenant acme/);
});
