// The platform_function pattern: a platform function's records as a source,
// called as the tenant (so another tenant's data never comes back); a
// function that does not exist fails discovery clearly.
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { sourcesPlatform } from './helpers.ts';

t.test('platform_function: the tenant\'s clients through list_clients', async (t) => {
  const { tp, acme, beta, asAcme } = await sourcesPlatform(t, {}, { workers: true });
  for (const [who, name] of [[acme, 'acme-web'], [acme, 'acme-app'], [beta, 'beta-web']] as const) {
    t.equal((await tp.request({ method: 'POST', url: '/api/admin/clients', token: who.token, tenant: who.alias, payload: { name } })).status, 201);
  }
  const sourceId = (await asAcme('POST', '/api/v1/sources', { name: 'clients', pattern_id: 'platform_function', source_config: { function: 'list_clients', arguments: { limit: 100 }, records_path: 'items', stream_name: 'all' } })).body.id;
  const discovery = (await asAcme('POST', '/api/v1/sources/discover', { source_id: sourceId, apply: true })).body;
  const found = await until(async () => {
    const status = (await asAcme('GET', `/api/v1/sources/discover/status/${discovery.workflow_id}`)).body;
    return status.status === 'queued' || status.status === 'running' ? undefined : status;
  }, 'discovery', 60_000);
  t.equal(found.status, 'succeeded', found.error ?? '');
  t.ok(found.streams[0].schema.properties.name);
  await asAcme('POST', `/api/v1/sources/${sourceId}/sync`);
  const run = await until(async () => {
    const status = (await asAcme('GET', `/api/v1/sources/${sourceId}/sync/status`)).body;
    return status.run?.is_terminal ? status.run : undefined;
  }, 'the sync', 60_000);
  t.equal(run.status, 'succeeded', run.error ?? '');
  const names = (await asAcme('GET', '/api/v1/datasets/raw.acme.clients_all/preview')).body.rows.map((r: { name: string }) => r.name).sort();
  t.same(names, ['acme-app', 'acme-web', 'default'], 'the tenant\'s own clients only (its default one included), never beta\'s');

  const missing = (await asAcme('POST', '/api/v1/sources', { name: 'nothing', pattern_id: 'platform_function', source_config: { function: 'no_such_function' } })).body.id;
  const failed = (await asAcme('POST', '/api/v1/sources/discover', { source_id: missing })).body;
  const status = await until(async () => {
    const s = (await asAcme('GET', `/api/v1/sources/discover/status/${failed.workflow_id}`)).body;
    return s.status === 'failed' || s.status === 'succeeded' ? s : undefined;
  }, 'discovery', 60_000);
  t.equal(status.status, 'failed');
  t.match(status.error, /Function not found: no_such_function/);
});
