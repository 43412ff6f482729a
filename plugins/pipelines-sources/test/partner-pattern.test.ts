// A partner plugin's pattern (the pipelines-sources.patterns extension point): listed, its `type: password`
// field write-only, its streams discovered and synced like a built-in's; a
// pattern without the events plugin (platform_events) fails clearly.
import t from 'tap';
import { startTestPlatform, tenantWithAdmin, until } from 'agent-platform/sdk/testing';

t.test('a pattern registered by a partner plugin works like a built-in one', async (t) => {
  const tp = await startTestPlatform(t, { manifest: 'test/fixtures/manifests/pattern-probe.yaml', listen: true });
  const acme = await tenantWithAdmin(tp, 'acme');
  const as = (method: string, url: string, payload?: unknown) => tp.request({ method, url, token: acme.token, tenant: 'acme', payload });
  const pattern = (await as('GET', '/api/v1/patterns/probe')).body;
  t.match(pattern, { id: 'probe', built_in: false, credential_fields: ['token'] });
  const sourceId = (await as('POST', '/api/v1/sources', { name: 'p', pattern_id: 'probe', source_config: { count: 3 }, credential_values: { token: 'open sesame' }, credential_name: 't' })).body.id;
  const discovery = (await as('POST', '/api/v1/sources/discover', { source_id: sourceId, apply: true })).body;
  await until(async () => (await as('GET', `/api/v1/sources/discover/status/${discovery.workflow_id}`)).body.status === 'succeeded', 'discovery', 60_000);
  await as('POST', `/api/v1/sources/${sourceId}/sync`);
  const run = await until(async () => {
    const status = (await as('GET', `/api/v1/sources/${sourceId}/sync/status`)).body;
    return status.run?.is_terminal ? status.run : undefined;
  }, 'the sync', 60_000);
  t.match(run, { status: 'succeeded', rows_added: 3 });
  t.same((await as('GET', '/api/v1/datasets/raw.acme.p_numbers/preview')).body.rows.map((r: { n: number }) => r.n).sort(), [1, 2, 3]);

  const events = (await as('POST', '/api/v1/sources', { name: 'ev', pattern_id: 'platform_events', source_config: {} })).body.id;
  const failed = (await as('POST', '/api/v1/sources/discover', { source_id: events })).body;
  const status = await until(async () => {
    const s = (await as('GET', `/api/v1/sources/discover/status/${failed.workflow_id}`)).body;
    return s.status === 'failed' || s.status === 'succeeded' ? s : undefined;
  }, 'discovery', 60_000);
  t.equal(status.status, 'failed');
  t.match(status.error, /events plugin is not part of this deployment/);
});
