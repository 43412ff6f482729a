// GraphQL transforms and transform runs: the REST data as Relay connections,
// exact snapshot ids as strings, another tenant's rows invisible.
import t from 'tap';
import { until } from 'agent-platform/sdk/testing';
import { transformsPlatform } from './helpers.ts';

t.test('graphql: transforms with their runs; transformRuns; another tenant sees none', async (t) => {
  const { asAcme, asBeta } = await transformsPlatform(t, {}, { workers: true });
  const id = (await asAcme.post('/api/v1/transforms', { name: 'ids', sql: 'SELECT id FROM raw.acme.orders' })).body.id;
  const run = (await asAcme.post(`/api/v1/transforms/${id}/materialize`, {})).body;
  const query = `{ transforms { edges { node { id name materialization status inputs columns { name type } runs { edges { node { id status snapshotId snapshot { id rowCount } rows trigger } } } } } }
    transformRuns(first: 1) { edges { node { id transformId } } pageInfo { hasNextPage } } transformRun(id: "${run.id}") { id status } }`;
  const answer = await asAcme.post('/graphql', { query });
  t.equal(answer.status, 200);
  t.notOk(answer.body.errors, JSON.stringify(answer.body.errors));
  const node = answer.body.data.transforms.edges[0].node;
  t.match(node, { id, name: 'ids', materialization: 'TABLE', status: 'ACTIVE', inputs: ['raw.acme.orders'], columns: [{ name: 'id', type: 'bigint' }] });
  t.same(node.runs.edges.map((e: { node: unknown }) => e.node), [{ id: run.id, status: 'SUCCEEDED', snapshotId: run.snapshot_id_exact, snapshot: { id: run.snapshot_id_exact, rowCount: 3 }, rows: 3, trigger: 'MATERIALIZE' }]);
  t.same(answer.body.data.transformRuns.edges.map((e: { node: { id: string } }) => e.node.id), [run.id]);
  t.same(answer.body.data.transformRun, { id: run.id, status: 'SUCCEEDED' });
  const beta = await asBeta.post('/graphql', { query: `{ transforms { edges { node { id } } } transformRun(id: "${run.id}") { id } }` });
  t.same(beta.body.data, { transforms: { edges: [] }, transformRun: null });
  const absent = await asAcme.post('/graphql', { query: '{ transform(id: "nope") { id } transformRun(id: "x") { id } }' });
  t.same(absent.body.data, { transform: null, transformRun: null }, 'an id that is not one of a transform (run): not found');
  const bad = await asAcme.post('/graphql', { query: '{ transformRuns(filter: { transformId: "nope" }) { totalCount } }' });
  t.equal(bad.body.errors[0].extensions.code, 'BAD_USER_INPUT');

  const MATERIALIZE = `mutation { materializeTransform(transformId: "${id}") { id status trigger transform { id name } } }`;
  const queued = await asAcme.post('/graphql', { query: MATERIALIZE });
  t.notOk(queued.body.errors, JSON.stringify(queued.body.errors));
  t.match(queued.body.data.materializeTransform, { trigger: 'MATERIALIZE', transform: { id, name: 'ids' } }, 'the run it queued');
  t.match((await asBeta.post('/graphql', { query: MATERIALIZE })).body.errors, [{ extensions: { code: 'TRANSFORM_NOT_FOUND' } }], 'another tenant\'s transform is not found');
  const second = queued.body.data.materializeTransform.id;
  await until(async () => (await asAcme.get(`/api/v1/transform-runs/${second}`)).body.status === 'succeeded', 'the queued run ends', 60_000);
  const RUNS = `query($before: String) { transformRuns(filter: { transformId: "${id}" }, last: 1, before: $before) {
    edges { node { id durationMs logs { level message } } } pageInfo { hasPreviousPage startCursor } totalCount } }`;
  const newest = await asAcme.post('/graphql', { query: RUNS });
  t.notOk(newest.body.errors, JSON.stringify(newest.body.errors));
  t.match(newest.body.data.transformRuns, { edges: [{ node: { id: run.id } }], pageInfo: { hasPreviousPage: true }, totalCount: 2 }, 'last: the oldest run');
  t.ok(newest.body.data.transformRuns.edges[0].node.logs.length > 0, 'the run\'s log');
  const earlier = await asAcme.post('/graphql', { query: RUNS, variables: { before: newest.body.data.transformRuns.pageInfo.startCursor } });
  t.match(earlier.body.data.transformRuns, { edges: [{ node: { id: second } }], pageInfo: { hasPreviousPage: false } }, 'the page before: the newer run');
});
