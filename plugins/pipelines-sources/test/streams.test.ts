// Streams: settings with their rules, bulk edits that apply whole or not at
// all, and refresh-schema (matched by namespace and name; configured settings
// kept).
import t from 'tap';
import { sourcesPlatform, userToken } from './helpers.ts';

const config = { host: '127.0.0.1', database: 'shop', user: 'reader' };
const ordersSchema = { type: 'object', properties: { id: { type: 'integer' }, updated_at: { type: 'string', format: 'date-time' }, total: { type: 'number' } } };

async function withSource(t: Parameters<typeof sourcesPlatform>[0]) {
  const platform = await sourcesPlatform(t);
  const source = await platform.asAcme('POST', '/api/v1/sources', { name: 'shop', pattern_id: 'postgres', source_config: config });
  return { ...platform, sourceId: source.body.id as string };
}

t.test('a stream: defaults, its rules, patch, delete; another tenant sees nothing', async (t) => {
  const { tp, asAcme, asBeta, sourceId } = await withSource(t);
  const base = `/api/v1/sources/${sourceId}/streams`;
  const created = await asAcme('POST', base, { name: 'orders', namespace: 'public', schema: ordersSchema, supported_sync_modes: ['full_refresh', 'incremental'] });
  t.equal(created.status, 201);
  t.match(created.body, { name: 'orders', namespace: 'public', sync_mode: 'full_refresh', write_mode: 'overwrite', cursor_field: null, primary_key: [], enabled: true, destination: 'raw.acme.shop_orders', state: {} });
  const streamId = created.body.id;

  const rules: [object, string][] = [
    [{ sync_mode: 'incremental' }, 'STREAM_INVALID'],
    [{ sync_mode: 'incremental', cursor_field: 'nope' }, 'STREAM_INVALID'],
    [{ write_mode: 'append_dedup' }, 'STREAM_INVALID'],
    [{ primary_key: ['nope'] }, 'STREAM_INVALID'],
    [{ destination: 'raw.beta.orders' }, 'DESTINATION_INVALID'],
    [{ destination: 'derived.acme.orders' }, 'DESTINATION_INVALID'],
    [{ destination: 'raw.acme.or-ders' }, 'DATASET_ID_INVALID'],
    [{ sync_mode: 'sometimes' }, 'VALIDATION_FAILED'],
  ];
  for (const [patch, code] of rules) {
    const response = await asAcme('PATCH', `${base}/${streamId}`, patch);
    t.equal(response.status, 400, `${JSON.stringify(patch)}: 400`);
    t.equal(response.body.code, code);
  }
  const incremental = await asAcme('PATCH', `${base}/${streamId}`, { sync_mode: 'incremental', cursor_field: 'updated_at', write_mode: 'append_dedup', primary_key: ['id'], destination: 'raw.acme.orders' });
  t.equal(incremental.status, 200);
  t.match(incremental.body, { sync_mode: 'incremental', cursor_field: 'updated_at', write_mode: 'append_dedup', primary_key: ['id'], destination: 'raw.acme.orders' });
  t.equal((await asAcme('POST', base, { name: 'orders', namespace: 'public' })).status, 409, 'one stream per namespace and name');
  t.equal((await asAcme('POST', base, { name: 'orders', namespace: null, supported_sync_modes: ['incremental'] })).status, 400, 'the default full_refresh is not supported');

  t.equal((await asBeta('GET', base)).status, 404);
  t.equal((await asBeta('PATCH', `${base}/${streamId}`, { enabled: false })).status, 404);
  const reader = await userToken(tp, 'reader', ['acme']);
  t.equal((await tp.request({ url: base, token: reader, tenant: 'acme' })).status, 200, 'members read streams');
  t.equal((await tp.request({ method: 'PATCH', url: `${base}/${streamId}`, token: reader, tenant: 'acme', payload: { enabled: false } })).status, 403);

  t.equal((await asAcme('DELETE', `${base}/${streamId}`)).status, 204);
  t.same((await asAcme('GET', base)).body.items, []);
  t.equal((await asAcme('DELETE', `${base}/${streamId}`)).status, 404);
});

t.test('bulk: every patch applies, or none does', async (t) => {
  const { asAcme, sourceId } = await withSource(t);
  const base = `/api/v1/sources/${sourceId}/streams`;
  const a = (await asAcme('POST', base, { name: 'a', schema: ordersSchema })).body.id;
  const b = (await asAcme('POST', base, { name: 'b', schema: ordersSchema })).body.id;
  const failed = await asAcme('POST', `${base}/bulk`, { streams: [{ stream_id: a, enabled: false }, { stream_id: b, write_mode: 'append_dedup' }] });
  t.equal(failed.status, 400);
  t.same((await asAcme('GET', base)).body.items.map((s: { enabled: boolean }) => s.enabled), [true, true], 'the valid patch was not applied either');
  const done = await asAcme('POST', `${base}/bulk`, { streams: [{ stream_id: a, enabled: false }, { stream_id: b, write_mode: 'append_dedup', primary_key: ['id'] }] });
  t.equal(done.status, 200);
  t.same(done.body.items.map((s: { name: string; enabled: boolean; write_mode: string }) => [s.name, s.enabled, s.write_mode]), [['a', false, 'overwrite'], ['b', true, 'append_dedup']]);
});

t.test('refresh-schema: matched by name, only schema and sync modes refreshed, new ones created, absent ones removed, empty removes nothing', async (t) => {
  const { asAcme, sourceId } = await withSource(t);
  const base = `/api/v1/sources/${sourceId}/streams`;
  const first = await asAcme('POST', `${base}/refresh-schema`, { streams: [
    { name: 'orders', namespace: 'public', schema: ordersSchema, supported_sync_modes: ['full_refresh', 'incremental'], source_defined_primary_key: ['id'] },
    { name: 'gone', namespace: 'public', schema: { type: 'object', properties: { x: { type: 'string' } } } },
  ] });
  t.equal(first.status, 200);
  t.equal(first.body.created.length, 2);
  const orders = first.body.items.find((s: { name: string }) => s.name === 'orders');
  t.same(orders.primary_key, ['id'], 'the declared key is the default');
  const configured = { sync_mode: 'incremental', cursor_field: 'updated_at', write_mode: 'append_dedup', enabled: false, destination: 'raw.acme.my_orders' };
  t.equal((await asAcme('PATCH', `${base}/${orders.id}`, configured)).status, 200);

  const newSchema = { type: 'object', properties: { ...ordersSchema.properties, note: { type: 'string' } } };
  const second = await asAcme('POST', `${base}/refresh-schema`, { streams: [
    { name: 'orders', namespace: 'public', schema: newSchema, supported_sync_modes: ['full_refresh', 'incremental'], source_defined_primary_key: ['note'] },
    { name: 'customers', namespace: 'public', schema: { type: 'object', properties: { id: { type: 'integer' } } } },
  ] });
  t.equal(second.status, 200);
  t.same(second.body.refreshed, [orders.id]);
  t.equal(second.body.created.length, 1);
  t.equal(second.body.removed.length, 1, '"gone" is absent from a non-empty snapshot: removed');
  const refreshed = second.body.items.find((s: { name: string }) => s.name === 'orders');
  t.same(refreshed.schema, newSchema, 'the schema is refreshed');
  t.match(refreshed, { ...configured, primary_key: ['id'], id: orders.id }, 'routing, sync, write, cursor, enabled and key are preserved');
  const customers = second.body.items.find((s: { name: string }) => s.name === 'customers');
  t.match(customers, { sync_mode: 'full_refresh', write_mode: 'overwrite', enabled: true, destination: 'raw.acme.shop_customers' }, 'a new name gets the defaults');

  const empty = await asAcme('POST', `${base}/refresh-schema`, { streams: [] });
  t.same(empty.body.removed, [], 'an empty snapshot removes nothing');
  t.equal(empty.body.items.length, 2);
  const twice = await asAcme('POST', `${base}/refresh-schema`, { streams: [{ name: 'x', schema: {} }, { name: 'x', schema: {} }] });
  t.equal(twice.status, 400);
  t.equal((await asAcme('GET', base)).body.items.length, 2, 'a refused snapshot changed nothing');
});
