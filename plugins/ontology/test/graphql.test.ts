// GraphQL over the ontology: entities by type with property filters,
// relationship filters and traversal, Relay pages, lineage, sync runs; and
// tenant isolation of entities (another tenant's entities of the same type
// and keys are never visible, through GraphQL or SQL as the tenant).
import t from 'tap';
import { lakeOf, lightRows, ontologyPlatform, syncAndWait, writeLights } from './helpers.ts';

const pole = {
  code: 'pole', name: 'Pole', properties: { type: 'object', properties: { pole_id: { type: 'string' }, material: { type: 'string' } } }, keys: ['pole_id'],
};
const light = {
  code: 'street_light', name: 'Street light', keys: ['light_id'], carrier_types: ['pole'],
  properties: { type: 'object', properties: { light_id: { type: 'string' }, name: { type: 'string' }, watts: { type: 'integer' }, pole_id: { type: 'string' } } },
  relationships: [{ name: 'mounted_on', target_type: 'pole', cardinality: 'one', via: 'pole_id' }],
};

async function seed(tenant: string, as: (m: string, u: string, p?: unknown) => Promise<{ status: number; body: any }>, lake: ReturnType<typeof lakeOf>, materials: string[]) {
  const columns = (names: string[]) => names.map((name) => ({ name, type: 'text' as const }));
  await lake.ensureDataset(tenant, { datasetId: `raw.${tenant}.poles`, primaryKey: ['id'], columns: columns(['id', 'material']), producer: { kind: 'source_stream', id: 't' } });
  await lake.write(tenant, `raw.${tenant}.poles`, { mode: 'overwrite', primaryKey: ['id'], source: { kind: 'records', batches: [materials.map((material, i) => ({ id: `P${i + 1}`, material }))] } });
  await lake.ensureDataset(tenant, { datasetId: `raw.${tenant}.lights`, primaryKey: ['id'], columns: [...columns(['id', 'label', 'pole']), { name: 'watts', type: 'bigint' }], producer: { kind: 'source_stream', id: 't' } });
  await lake.write(tenant, `raw.${tenant}.lights`, {
    mode: 'overwrite', primaryKey: ['id'],
    source: { kind: 'records', batches: [lightRows(5).map((row, i) => ({ id: row.id, label: `${tenant} ${row.label}`, watts: row.watts, pole: `P${(i % materials.length) + 1}` }))] },
  });
  for (const type of [pole, light]) if ((await as('POST', '/api/v1/ontology/entity-types', type)).status !== 201) throw new Error(type.code);
  const poles = await as('POST', '/api/v1/backing-datasets', { name: 'poles', dataset_id: `raw.${tenant}.poles`, entity_type: 'pole', mappings: [{ column: 'id', property: 'pole_id' }, { column: 'material', property: 'material' }], key_columns: ['id'] });
  const lights = await as('POST', '/api/v1/backing-datasets', {
    name: 'lights', dataset_id: `raw.${tenant}.lights`, entity_type: 'street_light', key_columns: ['id'],
    mappings: [{ column: 'id', property: 'light_id' }, { column: 'label', property: 'name' }, { column: 'watts', property: 'watts' }, { column: 'pole', property: 'pole_id' }],
  });
  await syncAndWait(as, poles.body.id);
  await syncAndWait(as, lights.body.id);
  return lights.body.id as string;
}

t.test('entities by type, filtered on properties and on related entities, traversed, paged; tenants isolated', async (t) => {
  const { tp, acme, beta, asAcme, asBeta, lake } = await ontologyPlatform(t);
  const lightsId = await seed('acme', asAcme, lake, ['steel', 'wood']);
  await seed('beta', asBeta, lake, ['concrete']);
  const query = (token: string, tenant: string, text: string, variables?: Record<string, unknown>) =>
    tp.request({ method: 'POST', url: '/graphql', token, tenant, payload: { query: text, variables } });

  const all = await query(acme.token, 'acme', '{ entities(filter: { type: "street_light" }, first: 2) { edges { node { key properties lineage { datasetId snapshotId sourceRowKey backingDatasetId backingDataset { id name datasetId entityType } dataset { id latestSnapshotId } snapshot { id } } } } pageInfo { hasNextPage endCursor } totalCount } }');
  const page = all.body.data.entities;
  t.same(page.edges.map((e: { node: { key: string } }) => e.node.key), ['["L1"]', '["L2"]']);
  const lineage = page.edges[0].node.lineage;
  t.match(lineage, { datasetId: 'raw.acme.lights', snapshotId: /^\d+$/, sourceRowKey: '["L1"]', backingDatasetId: lightsId });
  t.same(lineage.backingDataset, { id: lightsId, name: 'lights', datasetId: 'raw.acme.lights', entityType: 'street_light' }, 'the backing dataset as an object');
  t.same([lineage.dataset.id, lineage.snapshot.id], ['raw.acme.lights', lineage.snapshotId], 'the lake dataset and snapshot as objects');
  t.equal(lineage.dataset.latestSnapshotId, lineage.snapshotId);
  t.equal(page.pageInfo.hasNextPage, true);
  t.equal(page.totalCount, 5);
  const next = await query(acme.token, 'acme', 'query($after: String) { entities(filter: { type: "street_light" }, first: 10, after: $after) { edges { node { key } } } }', { after: page.pageInfo.endCursor });
  t.same(next.body.data.entities.edges.map((e: { node: { key: string } }) => e.node.key), ['["L3"]', '["L4"]', '["L5"]']);

  const filtered = await query(acme.token, 'acme', '{ entities(filter: { type: "street_light", where: {watts: 41} }) { edges { node { properties } } totalCount } }');
  t.same(filtered.body.data.entities.edges.map((e: { node: { properties: { name: string } } }) => e.node.properties.name), ['acme light 2']);
  const byRelated = await query(acme.token, 'acme', '{ entities(filter: { type: "street_light", where: {mounted_on: {material: "wood"}} }) { edges { node { key } } } }');
  t.same(byRelated.body.data.entities.edges.map((e: { node: { key: string } }) => e.node.key), ['["L2"]', '["L4"]'], 'lights on wooden poles');
  const traversed = await query(acme.token, 'acme', '{ entities(filter: { type: "street_light" }, first: 1) { edges { node { key related(filter: { relationship: "mounted_on" }) { edges { node { type properties } } totalCount } } } } }');
  t.same(traversed.body.data.entities.edges[0].node.related.edges[0].node, { type: 'pole', properties: { pole_id: 'P1', material: 'steel' } });
  t.equal(traversed.body.data.entities.edges[0].node.related.totalCount, 1);
  t.equal(filtered.body.data.entities.totalCount, 1);

  // Backward pages: the end of the list, then what comes before it, in key order; totalCount with the filter.
  const end = await query(acme.token, 'acme', '{ entities(filter: { type: "street_light" }, last: 2) { edges { node { key } } pageInfo { hasPreviousPage hasNextPage startCursor } totalCount } }');
  t.same(end.body.data.entities.edges.map((e: { node: { key: string } }) => e.node.key), ['["L4"]', '["L5"]']);
  t.match(end.body.data.entities, { pageInfo: { hasPreviousPage: true, hasNextPage: false }, totalCount: 5 });
  const before = await query(acme.token, 'acme', 'query($before: String) { entities(filter: { type: "street_light" }, last: 2, before: $before) { edges { node { key } } pageInfo { hasPreviousPage hasNextPage } } }',
    { before: end.body.data.entities.pageInfo.startCursor });
  t.same(before.body.data.entities.edges.map((e: { node: { key: string } }) => e.node.key), ['["L2"]', '["L3"]']);
  t.match(before.body.data.entities.pageInfo, { hasPreviousPage: true, hasNextPage: true });
  const lastType = await query(acme.token, 'acme', '{ entityTypes(last: 1) { edges { node { code } } totalCount } }');
  t.same(lastType.body.data.entityTypes, { edges: [{ node: { code: 'street_light' } }], totalCount: 2 });
  const noType = await query(acme.token, 'acme', '{ entities(filter: { where: {watts: 41} }) { totalCount } }');
  t.equal(noType.body.errors[0].extensions.code, 'BAD_USER_INPUT', 'filter.type is required');

  const types = await query(acme.token, 'acme', '{ entityTypes { edges { node { code carrierTypes relationships { name targetType cardinality } } } } }');
  t.same(types.body.data.entityTypes.edges.map((e: { node: unknown }) => e.node), [
    { code: 'pole', carrierTypes: [], relationships: [] },
    { code: 'street_light', carrierTypes: ['pole'], relationships: [{ name: 'mounted_on', targetType: 'pole', cardinality: 'ONE' }] },
  ]);
  const runs = await query(acme.token, 'acme', `{ backingDatasetSyncRuns(filter: { backingDatasetId: "${lightsId}" }) { edges { node { status rowsSynced isTerminal bulkJobs { id operation submittedCount } } } } }`);
  const run = runs.body.data.backingDatasetSyncRuns.edges[0].node;
  t.match(run, { status: 'SUCCEEDED', rowsSynced: 5, isTerminal: true, bulkJobs: [{ operation: 'upsert', submittedCount: 5 }, { operation: 'delete_stale', submittedCount: 0 }] });
  t.match(run.bulkJobs[0].id, /:upsert$/);

  // Tenant isolation: the same type and keys in beta, never seen by acme, and the reverse.
  const betaView = await query(beta.token, 'beta', '{ entities(filter: { type: "street_light" }) { edges { node { properties } } } }');
  t.equal(betaView.body.data.entities.edges.length, 5);
  t.ok(betaView.body.data.entities.edges.every((e: { node: { properties: { name: string } } }) => e.node.properties.name.startsWith('beta ')), 'beta sees only its own');
  const acmeView = await query(acme.token, 'acme', '{ entities(filter: { type: "street_light" }, first: 100) { edges { node { properties } } } }');
  t.ok(acmeView.body.data.entities.edges.every((e: { node: { properties: { name: string } } }) => e.node.properties.name.startsWith('acme ')), 'acme sees only its own');
  const crossRuns = await query(beta.token, 'beta', `{ backingDatasetSyncRuns(filter: { backingDatasetId: "${lightsId}" }) { edges { node { status } } } }`);
  t.equal(crossRuns.body.errors[0].extensions.code, 'BACKING_DATASET_NOT_FOUND', 'another tenant\'s runs are not found');
  const foreign = await query(beta.token, 'acme', '{ entities(filter: { type: "street_light" }) { edges { node { key } } } }');
  t.equal(foreign.status, 403, 'naming another tenant is refused');
  const rest = await asBeta('GET', `/api/v1/backing-datasets/${lightsId}`);
  t.equal(rest.status, 404);
});
