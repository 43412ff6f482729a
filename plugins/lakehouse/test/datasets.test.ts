// The dataset routes and the deprecated /iceberg/ routes: the read rule, the
// _exact snapshot fields, previews with time travel, the tenant rules
// (explicit X-Tenant-ID, membership), GraphQL.
import t from 'tap';
import { lakePlatform, ORDERS, ordersDataset, rawGet, records, userToken } from './helpers.ts';

const BIG = /"latest_snapshot_id":(\d+),"latest_snapshot_id_exact":"(\d+)"/;

t.test('datasets: list, read, preview (time travel), snapshots, with exact 64-bit ids', async (t) => {
  const { tp, acme, lake } = await lakePlatform(t);
  await ordersDataset(lake);
  const first = await lake.write('acme', ORDERS, { mode: 'overwrite', source: records({ id: 1, name: 'one', amount: '1.10' }, { id: '9007199254740993', name: 'big key' }) });
  const second = await lake.write('acme', ORDERS, { mode: 'overwrite', source: records({ id: 1, name: 'uno', amount: '1.10' }) });
  const get = (url: string) => tp.request({ url, token: acme.token, tenant: 'acme' });

  const list = await get('/api/v1/datasets');
  t.equal(list.status, 200);
  t.same(list.body.items.map((d: { id: string }) => d.id), [ORDERS]);
  t.equal(list.body.total, 1);

  const raw = await rawGet(tp, `/api/v1/datasets/${ORDERS}`, acme.token, 'acme');
  t.equal(raw.status, 200);
  const [, number, exact] = BIG.exec(raw.text) ?? [];
  t.equal(exact, second.snapshotId, 'latest_snapshot_id_exact is the exact id');
  t.equal(number, second.snapshotId, 'the deprecated number is written with the same exact digits');
  t.ok(BigInt(exact) > 2n ** 53n, 'past 2^53');
  t.ok([first.snapshotId, second.snapshotId].some((id) => BigInt(Number(id)) !== BigInt(id ?? 0)), 'a double cannot hold every id: the _exact string is what identifies');
  const dataset = JSON.parse(raw.text);
  t.match(dataset, { id: ORDERS, namespace: 'raw', layer: 'acme', table: 'orders', shared: false, owned: true, primary_key: ['id'], row_count: 1, snapshot_count: 2 });
  t.same(dataset.columns.map((c: { name: string; type: string }) => `${c.name}:${c.type}`), ['id:bigint', 'name:text', 'amount:numeric', 'updated_at:timestamptz', 'tags:jsonb']);

  const latest = await get(`/api/v1/datasets/${ORDERS}/preview`);
  t.equal(latest.status, 200);
  t.same(latest.body.rows, [{ id: 1, name: 'uno', amount: '1.10', updated_at: null, tags: null }]);
  const past = await get(`/api/v1/datasets/${ORDERS}/preview?snapshot_id=${first.snapshotId}`);
  t.equal(past.body.snapshot_id_exact, first.snapshotId);
  t.same(past.body.rows.map((r: { id: unknown; name: string }) => [r.id, r.name]).sort(), [[1, 'one'], ['9007199254740993', 'big key']], 'time travel; a bigint past 2^53 comes as a decimal string');
  const limited = await get(`/api/v1/datasets/${ORDERS}/preview?snapshot_id=${first.snapshotId}&limit=1`);
  t.equal(limited.body.rows.length, 1);
  const unknown = await get(`/api/v1/datasets/${ORDERS}/preview?snapshot_id=123`);
  t.equal(unknown.status, 404);
  t.equal(unknown.body.code, 'SNAPSHOT_NOT_FOUND');

  const snapshots = await rawGet(tp, `/api/v1/datasets/${ORDERS}/snapshots`, acme.token, 'acme');
  const body = JSON.parse(snapshots.text);
  t.same(body.items.map((s: { snapshot_id_exact: string }) => s.snapshot_id_exact), [second.snapshotId, first.snapshotId], 'newest first');
  t.equal(body.items[0].parent_snapshot_id_exact, first.snapshotId);
  t.match(snapshots.text, new RegExp(`"snapshot_id":${second.snapshotId},"snapshot_id_exact":"${second.snapshotId}"`));
  t.match(body.items[0], { operation: 'overwrite', rows_added: 1, rows_removed: 2, row_count: 1 });
  const page = await get(`/api/v1/datasets/${ORDERS}/snapshots?before=${second.snapshotId}`);
  t.same(page.body.items.map((s: { snapshot_id_exact: string }) => s.snapshot_id_exact), [first.snapshotId]);
});

t.test('the read rule: own namespaces, shared raw layers and the registry; anything else 403; malformed ids 400', async (t) => {
  const { tp, acme, beta, lake } = await lakePlatform(t);
  await ordersDataset(lake);
  await lake.write('acme', ORDERS, { mode: 'overwrite', source: records({ id: 1, name: 'acme only' }) });
  await lake.ensureDataset('acme', { datasetId: 'raw.shared_data.countries', columns: [{ name: 'code', type: 'text' }], shared: true, producer: { kind: 'registry', id: 'iso' } });
  await lake.write('acme', 'raw.shared_data.countries', { mode: 'overwrite', source: records({ code: 'PT' }, { code: 'NO' }) });
  const asBeta = (url: string) => tp.request({ url, token: beta.token, tenant: 'beta' });

  for (const id of [ORDERS, 'raw.acme.nothing_here', 'derived.acme.totals', 'sandbox.acme.x', 'derived.shared_data.x', 'lake.beta.x']) {
    const denied = await asBeta(`/api/v1/datasets/${id}`);
    t.equal(denied.status, 403, `${id}: 403 for another tenant, whether or not it exists`);
    t.equal(denied.body.code, 'DATASET_FORBIDDEN');
    t.equal((await asBeta(`/api/v1/datasets/${id}/preview`)).status, 403);
    t.equal((await asBeta(`/api/v1/datasets/${id}/snapshots`)).status, 403);
    t.equal((await asBeta(`/api/v1/iceberg/snapshots/${id}`)).status, 403);
  }
  t.equal((await asBeta('/api/v1/datasets/raw.beta.nothing_here')).status, 404, 'the own namespace: absent is 404');
  for (const id of ['raw.acme', 'raw.acme.orders.x', 'raw.acme.or-ders', 'ra w.acme.orders', 'raw.ac$me.orders', `raw.acme.${'x'.repeat(64)}`, 'raw..orders']) {
    const bad = await asBeta(`/api/v1/datasets/${encodeURIComponent(id)}`);
    t.equal(bad.status, 400, `"${id}" is malformed: 400`);
    t.equal(bad.body.code, 'DATASET_ID_INVALID');
  }

  const shared = await asBeta('/api/v1/datasets/raw.shared_data.countries/preview');
  t.equal(shared.status, 200, 'a shared raw layer is readable by every tenant');
  t.same(shared.body.rows.map((r: { code: string }) => r.code).sort(), ['NO', 'PT']);
  const listed = await asBeta('/api/v1/datasets');
  t.same(listed.body.items.map((d: { id: string; owned: boolean }) => [d.id, d.owned]), [['raw.shared_data.countries', false]], 'beta lists the shared dataset, not acme\'s own');
  t.equal((await tp.request({ url: '/api/v1/datasets?namespace=registry', token: acme.token, tenant: 'acme' })).body.total, 0);
});

t.test('the tenant rules (X-Tenant-ID, membership) on the dataset routes', async (t) => {
  const { tp, acme } = await lakePlatform(t);
  const one = await userToken(tp, 'solo', ['acme']);
  const two = await userToken(tp, 'duo', ['acme', 'beta']);
  const missing = await tp.request({ url: '/api/v1/datasets', token: one });
  t.equal(missing.status, 400, 'no X-Tenant-ID: 400 even for a user of one organization (claims never select the tenant)');
  t.equal(missing.body.code, 'TENANT_REQUIRED');
  t.equal((await tp.request({ url: '/api/v1/datasets', token: two })).body.code, 'TENANT_REQUIRED');
  const malformed = await tp.request({ url: '/api/v1/datasets', token: one, tenant: 'Not_An-Alias!' });
  t.equal(malformed.status, 400);
  t.equal(malformed.body.code, 'TENANT_INVALID');
  const foreign = await tp.request({ url: '/api/v1/datasets', token: one, tenant: 'beta' });
  t.equal(foreign.status, 403);
  t.equal(foreign.body.code, 'TENANT_FORBIDDEN');
  t.equal((await tp.request({ url: '/api/v1/datasets', token: one, tenant: 'acme' })).status, 200, 'a member without roles reads');
  t.equal((await tp.request({ url: '/api/v1/datasets', token: acme.token, tenant: 'acme' })).status, 200);
  t.equal((await tp.request({ url: '/api/v1/datasets', tenant: 'acme' })).status, 401, 'anonymous: 401');
});

t.test('deprecated /iceberg/ routes carry the _exact fields and say they are deprecated', async (t) => {
  const { tp, acme, lake } = await lakePlatform(t);
  await ordersDataset(lake);
  const written = await lake.write('acme', ORDERS, { mode: 'overwrite', source: records({ id: 1 }) });
  const tables = await rawGet(tp, '/api/v1/iceberg/tables', acme.token, 'acme');
  t.equal(tables.status, 200);
  t.equal(tables.headers.deprecation, 'true');
  t.match(tables.headers.link, /<\/api\/v1\/datasets>; rel="successor-version"/);
  const table = JSON.parse(tables.text).tables[0];
  t.match(table, { identifier: ORDERS, namespace: ['raw', 'acme'], name: 'orders', latest_snapshot_id_exact: written.snapshotId });
  t.match(tables.text, BIG);
  const snapshots = await rawGet(tp, `/api/v1/iceberg/snapshots/${ORDERS}`, acme.token, 'acme');
  const body = JSON.parse(snapshots.text);
  t.equal(body.current_snapshot_id_exact, written.snapshotId);
  t.equal(body.snapshots[0].snapshot_id_exact, written.snapshotId);
  t.type(body.snapshots[0].timestamp_ms, 'number');
  t.match(snapshots.text, new RegExp(`"snapshot_id":${written.snapshotId},`));
});

t.test('GraphQL: datasets with snapshots, as REST allows', async (t) => {
  const { tp, acme, beta, lake } = await lakePlatform(t);
  await ordersDataset(lake);
  const a = await lake.write('acme', ORDERS, { mode: 'overwrite', source: records({ id: 1 }) });
  const b = await lake.write('acme', ORDERS, { mode: 'overwrite', source: records({ id: 2 }) });
  const query = `{ datasets(first: 5) { edges { node { id namespace rowCount latestSnapshotId latestSnapshot { id rowCount } columns { name type }
    snapshots(first: 1) { edges { node { id parentSnapshotId parentSnapshot { id parentSnapshot { id } } operation rowsAdded } } pageInfo { hasNextPage endCursor } totalCount } } } totalCount } }`;
  const gql = (token: string, tenant: string, q = query) => tp.request({ method: 'POST', url: '/graphql', token, tenant, payload: { query: q } });
  const response = await gql(acme.token, 'acme');
  t.equal(response.status, 200);
  t.notOk(response.body.errors, JSON.stringify(response.body.errors));
  const node = response.body.data.datasets.edges[0].node;
  t.match(node, { id: ORDERS, namespace: 'RAW', rowCount: 1, latestSnapshotId: b.snapshotId, latestSnapshot: { id: b.snapshotId, rowCount: 1 } });
  t.same(node.snapshots.edges.map((e: { node: { id: string } }) => e.node.id), [b.snapshotId]);
  t.equal(node.snapshots.edges[0].node.parentSnapshotId, a.snapshotId);
  t.same(node.snapshots.edges[0].node.parentSnapshot, { id: a.snapshotId, parentSnapshot: null }, 'the parent snapshot as an object');
  t.equal(node.snapshots.pageInfo.hasNextPage, true);
  t.equal(node.snapshots.totalCount, 2);
  t.equal(response.body.data.datasets.totalCount, response.body.data.datasets.edges.length);
  const next = await gql(acme.token, 'acme', `{ dataset(id: "${ORDERS}") { snapshots(first: 5, after: "${node.snapshots.pageInfo.endCursor}") { edges { node { id } } } } }`);
  t.same(next.body.data.dataset.snapshots.edges.map((e: { node: { id: string } }) => e.node.id), [a.snapshotId]);
  t.same((await gql(acme.token, 'acme', '{ dataset(id: "not a dataset id") { id } }')).body.data, { dataset: null }, 'a malformed id is not found');
  const denied = await gql(beta.token, 'beta', `{ dataset(id: "${ORDERS}") { id } }`);
  t.equal(denied.body.errors[0].extensions.code, 'DATASET_FORBIDDEN');
  t.same((await gql(beta.token, 'beta')).body.data.datasets.edges, []);
});

t.test('GraphQL: backward pages with totalCount (datasets by id, snapshots newest first)', async (t) => {
  const { tp, acme, lake } = await lakePlatform(t);
  await ordersDataset(lake);
  const written: string[] = [];
  for (const id of [1, 2, 3]) written.push((await lake.write('acme', ORDERS, { mode: 'overwrite', source: records({ id }) })).snapshotId!);
  for (const table of ['alpha', 'beta_table']) {
    await lake.ensureDataset('acme', { datasetId: `raw.acme.${table}`, columns: [{ name: 'id', type: 'bigint' }], producer: { kind: 'source_stream', id: 't' } });
  }
  const gql = async (query: string) => {
    const res = await tp.request({ method: 'POST', url: '/graphql', token: acme.token, tenant: 'acme', payload: { query } });
    t.notOk(res.body.errors, JSON.stringify(res.body.errors));
    return res.body.data;
  };
  const ids = (page: { edges: { node: { id: string } }[] }) => page.edges.map((e) => e.node.id);
  const all = ids((await gql('{ datasets(first: 100) { edges { node { id } } } }')).datasets);
  t.same(all, [...all].sort(), 'by id');
  const end = (await gql('{ datasets(last: 2) { edges { node { id } } pageInfo { hasPreviousPage hasNextPage startCursor } totalCount } }')).datasets;
  t.same(ids(end), all.slice(-2));
  t.match(end, { pageInfo: { hasPreviousPage: true, hasNextPage: false }, totalCount: all.length });
  const before = (await gql(`{ datasets(last: 100, before: "${end.pageInfo.startCursor}") { edges { node { id } } pageInfo { hasPreviousPage hasNextPage } } }`)).datasets;
  t.same(ids(before), all.slice(0, -2));
  t.match(before.pageInfo, { hasPreviousPage: false, hasNextPage: true });
  t.equal((await gql('{ datasets(filter: { namespace: REGISTRY }) { totalCount } }')).datasets.totalCount, 0, 'the filter counts too');

  const snapshots = (await gql(`{ dataset(id: "${ORDERS}") { snapshots(last: 2) { edges { node { id } } pageInfo { hasPreviousPage startCursor } totalCount } } }`)).dataset.snapshots;
  t.same(ids(snapshots), [written[1], written[0]], 'the oldest two, newest first');
  t.match(snapshots, { pageInfo: { hasPreviousPage: true }, totalCount: 3 });
  const newest = (await gql(`{ dataset(id: "${ORDERS}") { snapshots(last: 5, before: "${snapshots.pageInfo.startCursor}") { edges { node { id } } } } }`)).dataset.snapshots;
  t.same(ids(newest), [written[2]]);
});
