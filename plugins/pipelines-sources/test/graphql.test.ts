// GraphQL: sources with streams and runs, as REST allows (members read; another
// tenant sees nothing); no credential value is reachable.
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { sourcesPlatform, upstreamDatabase } from './helpers.ts';

const SECRET = 'graphql-never-sees-this';

t.test('sources, streams and runs through GraphQL', async (t) => {
  const { tp, acme, beta, asAcme } = await sourcesPlatform(t, {}, { workers: true });
  const upstream = await upstreamDatabase(t);
  await upstream.client.query(`CREATE TABLE orders (id bigint PRIMARY KEY, name text); INSERT INTO orders VALUES (1, 'a'), (2, 'b')`);
  const sourceId = (await asAcme('POST', '/api/v1/sources', { name: 'shop', pattern_id: 'postgres', source_config: upstream.config, credential_values: { password: SECRET }, credential_name: 'shop' })).body.id;
  await asAcme('POST', `/api/v1/sources/${sourceId}/streams/refresh-schema`, { streams: [
    { name: 'orders', namespace: 'public', schema: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } }, supported_sync_modes: ['full_refresh', 'incremental'], source_defined_primary_key: ['id'] },
  ] });
  const started = (await asAcme('POST', `/api/v1/sources/${sourceId}/sync`)).body;
  await until(async () => (await asAcme('GET', `/api/v1/sources/${sourceId}/sync/status`)).body.run.is_terminal, 'the run', 60_000);
  await asAcme('POST', `/api/v1/sources/${sourceId}/sync`);
  await until(async () => (await asAcme('GET', `/api/v1/sources/${sourceId}/sync/status`)).body.run.is_terminal, 'the second run', 60_000);

  const gql = (query: string, who = acme) => tp.request({ method: 'POST', url: '/graphql', token: who.token, tenant: who.alias, payload: { query } });
  const response = await gql(`{ sources(first: 5) { edges { node { id name patternId state sourceConfig credentialRef credentialFieldsSet
    streams { name namespace syncMode writeMode supportedSyncModes primaryKey destination state }
    runs(first: 1) { edges { node { id status trigger rowsRead streams { streamName status snapshotId snapshot { id rowCount } } } } pageInfo { hasNextPage endCursor } } } } } }`);
  t.equal(response.status, 200);
  t.notOk(response.body.errors, JSON.stringify(response.body.errors));
  const source = response.body.data.sources.edges[0].node;
  t.match(source, { id: sourceId, name: 'shop', patternId: 'postgres', state: 'ACTIVE', credentialFieldsSet: ['password'] });
  t.match(source.streams, [{ name: 'orders', namespace: 'public', syncMode: 'FULL_REFRESH', writeMode: 'OVERWRITE', supportedSyncModes: ['FULL_REFRESH', 'INCREMENTAL'], primaryKey: ['id'], destination: 'raw.acme.shop_orders' }]);
  t.equal(source.runs.edges.length, 1);
  t.equal(source.runs.pageInfo.hasNextPage, true);
  t.match(source.runs.edges[0].node, { status: 'SUCCEEDED', trigger: 'MANUAL', rowsRead: 2, streams: [{ streamName: 'orders', status: 'SUCCEEDED' }] });
  t.match(source.runs.edges[0].node.streams[0].snapshotId, /^\d+$/);
  t.same(source.runs.edges[0].node.streams[0].snapshot, { id: source.runs.edges[0].node.streams[0].snapshotId, rowCount: 2 }, 'the snapshot the run left, read from the lake');
  t.notMatch(JSON.stringify(response.body), SECRET);

  const next = await gql(`{ runs(filter: { sourceId: "${sourceId}" }, first: 5, after: "${source.runs.pageInfo.endCursor}") { edges { node { id } } } }`);
  t.same(next.body.data.runs.edges.map((e: { node: { id: string } }) => e.node.id), [started.id], 'the next page holds the first run');
  const back = await gql(`{ runs(filter: { sourceId: "${sourceId}", status: SUCCEEDED }, last: 1) { edges { node { id } } pageInfo { hasPreviousPage hasNextPage } totalCount } }`);
  t.same(back.body.data.runs, { edges: [{ node: { id: started.id } }], pageInfo: { hasPreviousPage: true, hasNextPage: false }, totalCount: 2 }, 'last: the oldest run');
  const linked = await gql(`{ run(id: "${started.id}") { source { id pattern { id builtIn } } durationMs streams { streamId stream { id name } syncMode writeMode finishedAt snapshotCreated } } }`);
  t.notOk(linked.body.errors, JSON.stringify(linked.body.errors));
  t.match(linked.body.data.run, { source: { id: sourceId, pattern: { id: 'postgres', builtIn: true } }, streams: [{ stream: { name: 'orders' }, syncMode: 'FULL_REFRESH', writeMode: 'OVERWRITE', snapshotCreated: true }] });
  t.equal(linked.body.data.run.streams[0].stream.id, linked.body.data.run.streams[0].streamId);
  t.ok(linked.body.data.run.durationMs >= 0);
  const one = await gql(`{ run(id: "${started.id}") { id workflowId isTerminal streams { streamName rowsAdded } } }`);
  t.match(one.body.data.run, { id: started.id, workflowId: started.workflow_id, isTerminal: true, streams: [{ streamName: 'orders', rowsAdded: 2 }] });
  t.equal((await gql(`{ source(id: "${sourceId}") { name } }`)).body.data.source.name, 'shop');
  t.equal((await gql('{ source(id: "nope") { name } }')).body.data.source, null, 'an id that is no source id: not found');
  t.equal((await gql('{ runs(filter: { sourceId: "nope" }) { totalCount } }')).body.errors[0].extensions.code, 'BAD_USER_INPUT');
  t.equal((await gql('{ runs(after: "bm9wZQ") { edges { node { id } } } }')).body.errors[0].extensions.code, 'BAD_USER_INPUT');

  t.same((await gql('{ sources { edges { node { id } } } }', beta)).body.data.sources.edges, [], 'another tenant sees no source');
  t.equal((await gql(`{ source(id: "${sourceId}") { id } }`, beta)).body.data.source, null);
  t.equal((await gql(`{ run(id: "${started.id}") { id } }`, beta)).body.data.run, null);
  t.same((await gql('{ runs { edges { node { id } } } }', beta)).body.data.runs.edges, []);

  const SYNC = `mutation { syncSource(sourceId: "${sourceId}", streams: ["orders"]) { id status trigger source { id } } }`;
  const synced = await gql(SYNC);
  t.notOk(synced.body.errors, JSON.stringify(synced.body.errors));
  t.match(synced.body.data.syncSource, { status: 'QUEUED', trigger: 'MANUAL', source: { id: sourceId } }, 'syncSource answers the run it queued');
  const again = await gql(SYNC);
  t.match(again.body.errors, [{ path: ['syncSource'], extensions: { code: 'SYNC_IN_PROGRESS' } }], 'the REST twin\'s 409, code kept');
  t.match((await gql(SYNC, beta)).body.errors, [{ extensions: { code: 'SOURCE_NOT_FOUND' } }], 'another tenant\'s source is not found');
  await until(async () => (await asAcme('GET', `/api/v1/sources/${sourceId}/sync/status`)).body.run.is_terminal, 'the third run', 60_000);
});
