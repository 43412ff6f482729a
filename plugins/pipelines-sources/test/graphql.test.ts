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
    runs(first: 1) { edges { node { id status trigger rowsRead streams { streamName status snapshotId } } } pageInfo { hasNextPage endCursor } } } } } }`);
  t.equal(response.status, 200);
  t.notOk(response.body.errors, JSON.stringify(response.body.errors));
  const source = response.body.data.sources.edges[0].node;
  t.match(source, { id: sourceId, name: 'shop', patternId: 'postgres', state: 'ACTIVE', credentialFieldsSet: ['password'] });
  t.match(source.streams, [{ name: 'orders', namespace: 'public', syncMode: 'FULL_REFRESH', writeMode: 'OVERWRITE', supportedSyncModes: ['FULL_REFRESH', 'INCREMENTAL'], primaryKey: ['id'], destination: 'raw.acme.shop_orders' }]);
  t.equal(source.runs.edges.length, 1);
  t.equal(source.runs.pageInfo.hasNextPage, true);
  t.match(source.runs.edges[0].node, { status: 'SUCCEEDED', trigger: 'MANUAL', rowsRead: 2, streams: [{ streamName: 'orders', status: 'SUCCEEDED' }] });
  t.match(source.runs.edges[0].node.streams[0].snapshotId, /^\d+$/);
  t.notMatch(JSON.stringify(response.body), SECRET);

  const next = await gql(`{ runs(sourceId: "${sourceId}", first: 5, after: "${source.runs.pageInfo.endCursor}") { edges { node { id } } } }`);
  t.same(next.body.data.runs.edges.map((e: { node: { id: string } }) => e.node.id), [started.id], 'the next page holds the first run');
  const one = await gql(`{ run(id: "${started.id}") { id workflowId isTerminal streams { streamName rowsAdded } } }`);
  t.match(one.body.data.run, { id: started.id, workflowId: started.workflow_id, isTerminal: true, streams: [{ streamName: 'orders', rowsAdded: 2 }] });
  t.equal((await gql(`{ source(id: "${sourceId}") { name } }`)).body.data.source.name, 'shop');
  t.equal((await gql('{ source(id: "nope") { name } }')).body.errors[0].extensions.code, 'BAD_USER_INPUT');
  t.equal((await gql('{ runs(after: "bm9wZQ") { edges { node { id } } } }')).body.errors[0].extensions.code, 'BAD_USER_INPUT');

  t.same((await gql('{ sources { edges { node { id } } } }', beta)).body.data.sources.edges, [], 'another tenant sees no source');
  t.equal((await gql(`{ source(id: "${sourceId}") { id } }`, beta)).body.data.source, null);
  t.equal((await gql(`{ run(id: "${started.id}") { id } }`, beta)).body.data.run, null);
  t.same((await gql('{ runs { edges { node { id } } } }', beta)).body.data.runs.edges, []);
});
