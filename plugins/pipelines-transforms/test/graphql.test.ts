// GraphQL transforms and transform runs: the REST data as Relay connections,
// exact snapshot ids as strings, another tenant's rows invisible.
import t from 'tap';
import { transformsPlatform } from './helpers.ts';

t.test('graphql: transforms with their runs; transformRuns; another tenant sees none', async (t) => {
  const { asAcme, asBeta } = await transformsPlatform(t, {}, { workers: true });
  const id = (await asAcme.post('/api/v1/transforms', { name: 'ids', sql: 'SELECT id FROM raw.acme.orders' })).body.id;
  const run = (await asAcme.post(`/api/v1/transforms/${id}/materialize`, {})).body;
  const query = `{ transforms { edges { node { id name materialization status inputs columns { name type } runs { edges { node { id status snapshotId rows trigger } } } } } }
    transformRuns(first: 1) { edges { node { id transformId } } pageInfo { hasNextPage } } transformRun(id: "${run.id}") { id status } }`;
  const answer = await asAcme.post('/graphql', { query });
  t.equal(answer.status, 200);
  t.notOk(answer.body.errors, JSON.stringify(answer.body.errors));
  const node = answer.body.data.transforms.edges[0].node;
  t.match(node, { id, name: 'ids', materialization: 'TABLE', status: 'ACTIVE', inputs: ['raw.acme.orders'], columns: [{ name: 'id', type: 'bigint' }] });
  t.same(node.runs.edges.map((e: { node: unknown }) => e.node), [{ id: run.id, status: 'SUCCEEDED', snapshotId: run.snapshot_id_exact, rows: 3, trigger: 'MATERIALIZE' }]);
  t.same(answer.body.data.transformRuns.edges.map((e: { node: { id: string } }) => e.node.id), [run.id]);
  t.same(answer.body.data.transformRun, { id: run.id, status: 'SUCCEEDED' });
  const beta = await asBeta.post('/graphql', { query: `{ transforms { edges { node { id } } } transformRun(id: "${run.id}") { id } }` });
  t.same(beta.body.data, { transforms: { edges: [] }, transformRun: null });
  const bad = await asAcme.post('/graphql', { query: '{ transform(id: "nope") { id } }' });
  t.equal(bad.body.errors[0].extensions.code, 'BAD_USER_INPUT');
});
