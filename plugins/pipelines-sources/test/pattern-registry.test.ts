// The pattern registry over HTTP: presets of code patterns registered with
// the admin secret, reconciled from a signed webhook; a preset works as a
// pattern (its defaults fill the configuration).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { standardWebhookHeaders } from 'agent-platform/sdk';
import { until } from 'agent-platform/sdk/testing';
import { sourcesPlatform } from './helpers.ts';

const ADMIN = 'pattern-admin-secret-0123456789';
const WEBHOOK = 'pattern-webhook-secret-0123456789';

t.test('without the secrets the registry is off', async (t) => {
  const { tp } = await sourcesPlatform(t);
  const register = await tp.request({ method: 'POST', url: '/api/v1/patterns/register', headers: { 'x-pattern-admin-secret': 'x' }, payload: { id: 'p', base_pattern: 'csv', name: 'P' } });
  t.same([register.status, register.body.code], [503, 'PATTERN_REGISTRY_DISABLED']);
  const raw = JSON.stringify({ patterns: [] });
  const reconcile = await tp.request({ method: 'POST', url: '/api/v1/patterns/reconcile', headers: standardWebhookHeaders('x', raw), payload: raw });
  t.same([reconcile.status, reconcile.body.code], [503, 'PATTERN_REGISTRY_DISABLED']);
});

t.test('register a preset with the admin secret; it works as a pattern; reconcile owns its own list', async (t) => {
  const server = createServer((_request, response) => response.writeHead(200).end(JSON.stringify({ data: { rows: [{ id: 1, name: 'one' }, { id: 2, name: 'two' }] } })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rows`;
  const { tp, asAcme } = await sourcesPlatform(t, { PATTERN_ADMIN_SECRET: ADMIN, PATTERN_WEBHOOK_SECRET: WEBHOOK }, { workers: true });
  const register = (payload: object, secret = ADMIN) => tp.request({ method: 'POST', url: '/api/v1/patterns/register', headers: { 'x-pattern-admin-secret': secret }, payload });
  const preset = { id: 'rows_api', base_pattern: 'http_json', name: 'Rows API', defaults: { url, records_path: 'data.rows', stream_name: 'rows' } };

  t.same([(await register(preset, 'wrong')).status, (await register(preset, 'wrong')).body.code], [401, 'PATTERN_SECRET_INVALID']);
  for (const [payload, code] of [
    [{ ...preset, id: 'postgres' }, 'PATTERN_ID_TAKEN'],
    [{ ...preset, base_pattern: 'nothing' }, 'PATTERN_BASE_UNKNOWN'],
    [{ ...preset, defaults: { api_key: 'secret' } }, 'PATTERN_PRESET_INVALID'],
    [{ ...preset, defaults: { max_pages: 'many' } }, 'PATTERN_PRESET_INVALID'],
    [{ ...preset, defaults: { nope: 1 } }, 'PATTERN_PRESET_INVALID'],
  ] as const) {
    const refused = await register(payload);
    t.same([refused.status, refused.body.code], [400, code], code);
  }
  const made = await register(preset);
  t.equal(made.status, 201);
  const read = (await asAcme('GET', '/api/v1/patterns/rows_api')).body;
  t.match(read, { id: 'rows_api', built_in: false, base_pattern: 'http_json', config_schema: { properties: { url: { default: url } } } });
  t.notOk(read.config_schema.required.includes('url'), 'a preset field is no longer required');

  const sourceId = (await asAcme('POST', '/api/v1/sources', { name: 'rows', pattern_id: 'rows_api', source_config: {} })).body.id;
  const discovery = (await asAcme('POST', '/api/v1/sources/discover', { source_id: sourceId, apply: true })).body;
  const found = await until(async () => {
    const status = (await asAcme('GET', `/api/v1/sources/discover/status/${discovery.workflow_id}`)).body;
    return status.status === 'queued' || status.status === 'running' ? undefined : status;
  }, 'discovery', 60_000);
  t.equal(found.status, 'succeeded', found.error ?? '');
  t.equal(found.streams[0].name, 'rows');

  const reconcile = (body: object, secret = WEBHOOK) => {
    const raw = JSON.stringify(body);
    return tp.request({ method: 'POST', url: '/api/v1/patterns/reconcile', headers: standardWebhookHeaders(secret, raw), payload: raw });
  };
  const two = { patterns: [{ id: 'files_a', base_pattern: 'csv', name: 'A', defaults: { format: 'jsonl' } }, { id: 'files_b', base_pattern: 'csv', name: 'B' }] };
  t.equal((await reconcile(two, 'not the secret')).body.code, 'PATTERN_SIGNATURE_INVALID');
  t.equal((await reconcile({ patterns: [{ id: 'Bad Id' }] })).status, 400);
  const first = await reconcile(two);
  t.equal(first.status, 200);
  t.same(first.body, { upserted: ['files_a', 'files_b'], removed: [] });
  const second = await reconcile({ patterns: [two.patterns[0]] });
  t.same(second.body, { upserted: ['files_a'], removed: ['files_b'] }, 'what it no longer lists is removed');
  const ids = (await asAcme('GET', '/api/v1/patterns/discover')).body.items.map((p: { id: string }) => p.id);
  t.ok(ids.includes('files_a') && ids.includes('rows_api') && !ids.includes('files_b'), 'a hand-registered preset is not the reconcile\'s to remove');
});

t.test('the tenant role sees and writes no registration (tenant SQL runs as that role)', async (t) => {
  const { tp } = await sourcesPlatform(t, { PATTERN_ADMIN_SECRET: ADMIN });
  await tp.request({ method: 'POST', url: '/api/v1/patterns/register', headers: { 'x-pattern-admin-secret': ADMIN }, payload: { id: 'files', base_pattern: 'csv', name: 'Files' } });
  const seen = await tp.platform.core.withTenant('acme', async (trx) => (await trx.selectFrom('pipeline_pattern_registrations').selectAll().execute()).length);
  t.equal(seen, 0);
  await t.rejects(tp.platform.core.withTenant('acme', (trx) => trx.insertInto('pipeline_pattern_registrations')
    .values({ id: 'evil', base_pattern: 'csv', name: 'x', managed_by: 'register' }).execute()));
  t.equal((await tp.platform.core.db.selectFrom('pipeline_pattern_registrations').selectAll().execute()).length, 1, 'the platform reads it');
});
