// GET /datasets/{id}/lineage: writers, upstream and downstream from the kept
// snapshots' records, read by any member, and never naming what the tenant
// may not read (another tenant's readers of a shared dataset, a shared
// dataset's inputs in another tenant's layer). Also the list's `q` filter.
import t from 'tap';
import { lakePlatform, ORDERS, ordersDataset, records, userToken } from './helpers.ts';

const SHARED = 'raw.shared_data.countries';

t.test('lineage: writers, upstream, downstream; members read it; other tenants never show', async (t) => {
  const { tp, acme, beta, lake } = await lakePlatform(t);
  await ordersDataset(lake);
  await lake.write('acme', ORDERS, { mode: 'overwrite', source: records({ id: 1, name: 'one' }) });
  // A shared dataset written by beta from a dataset of beta's own layer.
  await lake.ensureDataset('beta', { datasetId: 'raw.beta.secret', columns: [{ name: 'code', type: 'text' }], producer: { kind: 'source_stream', id: 's1', name: 'secret' } });
  await lake.ensureDataset('beta', { datasetId: SHARED, columns: [{ name: 'code', type: 'text' }], shared: true, producer: { kind: 'transform', id: 'tb', name: 'countries' } });
  await lake.write('beta', SHARED, { mode: 'overwrite', source: records({ code: 'PT' }), summary: { producer: { kind: 'transform', id: 'tb', name: 'countries' }, inputs: ['raw.beta.secret'] } });
  // acme computes a derived dataset from its orders and the shared one, first by a transform, then by a pipeline.
  const totals = 'derived.acme.totals';
  const transform = { kind: 'transform', id: 't1', name: 'totals' };
  const pipeline = { kind: 'pipeline', id: 'p1', name: 'nightly' };
  await lake.ensureDataset('acme', { datasetId: totals, columns: [{ name: 'n', type: 'bigint' }], producer: transform });
  await lake.write('acme', totals, { mode: 'overwrite', source: records({ n: 1 }), summary: { producer: transform, inputs: [ORDERS, SHARED] } });
  await lake.write('acme', totals, { mode: 'overwrite', source: records({ n: 2 }), summary: { producer: pipeline, inputs: [ORDERS] } });
  // beta reads the shared dataset too: acme must not see beta's reader.
  await lake.ensureDataset('beta', { datasetId: 'derived.beta.mine', columns: [{ name: 'n', type: 'bigint' }], producer: { kind: 'transform', id: 'tm', name: 'mine' } });
  await lake.write('beta', 'derived.beta.mine', { mode: 'overwrite', source: records({ n: 5 }), summary: { producer: { kind: 'transform', id: 'tm' }, inputs: [SHARED] } });

  const member = await userToken(tp, 'plain-member', ['acme']);
  const get = (url: string, token = member, tenant = 'acme') => tp.request({ url, token, tenant });

  const derived = await get(`/api/v1/datasets/${totals}/lineage`);
  t.equal(derived.status, 200, 'a member without roles reads lineage');
  t.same(derived.body.writers.map((w: { kind: string; id: string; name: string }) => [w.kind, w.id, w.name]), [['transform', 't1', 'totals'], ['pipeline', 'p1', 'nightly']]);
  t.ok(derived.body.writers.every((w: { last_written_at: string }) => typeof w.last_written_at === 'string'), 'each writer with its last write');
  t.same(derived.body.upstream, [
    { dataset_id: ORDERS, exists: true, producer: { kind: 'source_stream', id: 'test', name: 'orders' } },
    { dataset_id: SHARED, exists: true, producer: { kind: 'transform', id: 'tb', name: 'countries' } },
  ]);
  t.same(derived.body.downstream, []);

  const orders = await get(`/api/v1/datasets/${ORDERS}/lineage`);
  t.same(orders.body.writers.map((w: { kind: string }) => w.kind), ['source_stream']);
  t.ok(orders.body.writers[0].last_written_at, 'a source stream\'s last write is its newest snapshot');
  t.same(orders.body.upstream, []);
  t.same(orders.body.downstream.map((d: { dataset_id: string }) => d.dataset_id), [totals]);

  const shared = await get(`/api/v1/datasets/${SHARED}/lineage`);
  t.same(shared.body.upstream, [], 'the shared dataset\'s input in beta\'s layer is not named to acme');
  t.same(shared.body.downstream.map((d: { dataset_id: string }) => d.dataset_id), [totals], 'beta\'s reader is not listed for acme');
  const sharedForBeta = await get(`/api/v1/datasets/${SHARED}/lineage`, beta.token, 'beta');
  t.same(sharedForBeta.body.upstream.map((d: { dataset_id: string }) => d.dataset_id), ['raw.beta.secret']);
  t.same(sharedForBeta.body.downstream.map((d: { dataset_id: string }) => d.dataset_id), ['derived.beta.mine']);

  t.equal((await get(`/api/v1/datasets/${totals}/lineage`, beta.token, 'beta')).body.code, 'DATASET_FORBIDDEN', 'another tenant\'s dataset: 403');
  t.equal((await get('/api/v1/datasets/derived.acme.nothing/lineage')).status, 404);
  t.equal((await get('/api/v1/datasets/not-an-id/lineage')).body.code, 'DATASET_ID_INVALID');
  t.equal((await tp.request({ url: `/api/v1/datasets/${totals}/lineage`, token: acme.token })).status, 400, 'X-Tenant-ID is required');
  t.equal((await tp.request({ url: `/api/v1/datasets/${totals}/lineage` })).status, 401);

  const filtered = await get('/api/v1/datasets?q=TOT');
  t.same(filtered.body.items.map((d: { id: string }) => d.id), [totals], 'q: the ids containing it, case-insensitive');
  t.equal(filtered.body.total, 1);
  t.same((await get('/api/v1/datasets?q=mine')).body.items, [], 'another tenant\'s dataset is never listed');
  t.equal((await get('/api/v1/datasets?q=a%25b')).status, 400, 'q holds only the characters of a dataset id');
});
