// Entity types: immutable versions, checks, and the
// delete rule (refused while backing datasets use the type, unless allow_deprecate).
import t from 'tap';
import { stored } from '../../pipelines-sources/test/helpers.ts';
import { lightRows, lightsBacking, ontologyPlatform, streetLight, writeLights } from './helpers.ts';

t.test('create, read, version and list entity types; versions never change', async (t) => {
  const { tp, asAcme, asBeta } = await ontologyPlatform(t, {}, { workers: false });
  const created = await asAcme('POST', '/api/v1/ontology/entity-types', streetLight);
  t.equal(created.status, 201);
  t.match(created.body, { code: 'street_light', version: 1, current_version: 1, keys: ['light_id'], relationships: [], carrier_types: [], deprecated: false, created_by: 'acme-admin' });
  t.equal((await asAcme('POST', '/api/v1/ontology/entity-types', streetLight)).body.code, 'ENTITY_TYPE_EXISTS');
  const patched = await asAcme('PATCH', '/api/v1/ontology/entity-types/street_light', { description: 'A lamp post' });
  t.match(patched.body, { version: 2, description: 'A lamp post', name: 'Street light' });
  const same = await asAcme('PATCH', '/api/v1/ontology/entity-types/street_light', { description: 'A lamp post' });
  t.equal(same.body.version, 2, 'no change, no version');
  const pole = await asAcme('POST', '/api/v1/ontology/entity-types', {
    code: 'pole', name: 'Pole', properties: { type: 'object', properties: { pole_id: { type: 'string' } } }, keys: ['pole_id'],
  });
  t.equal(pole.status, 201);
  const v3 = await asAcme('POST', '/api/v1/ontology/entity-types/street_light/versions', {
    ...streetLight, code: undefined,
    properties: { ...streetLight.properties, properties: { ...streetLight.properties.properties, pole_id: { type: 'string' } } },
    relationships: [{ name: 'mounted_on', target_type: 'pole', cardinality: 'one', via: 'pole_id' }], carrier_types: ['pole'],
  });
  t.equal(v3.status, 201);
  t.match(v3.body, { version: 3, carrier_types: ['pole'], relationships: [{ name: 'mounted_on', target_type: 'pole', cardinality: 'one', via: 'pole_id' }] });
  const versions = (await asAcme('GET', '/api/v1/ontology/entity-types/street_light/versions')).body.items;
  t.same(versions.map((v: { version: number }) => v.version), [1, 2, 3]);
  t.equal(versions[0].description, 'A public light', 'version 1 is as it was written');
  t.same((await asAcme('GET', '/api/v1/ontology/entity-types')).body.items.map((i: { code: string }) => i.code), ['pole', 'street_light']);
  t.equal((await asBeta('GET', '/api/v1/ontology/entity-types/street_light')).status, 404, 'another tenant sees nothing');
  const events = await stored(tp, `SELECT data->>'change' AS change FROM events WHERE type = 'ontology.entity_type.changed' AND data->>'code' = 'street_light' ORDER BY time`);
  t.same(events.map((e) => e.change), ['created', 'versioned', 'versioned']);
});

t.test('an inconsistent definition is a 400 that changes nothing', async (t) => {
  const { asAcme } = await ontologyPlatform(t, {}, { workers: false });
  const cases: [string, Record<string, unknown>][] = [
    ['key not a property', { ...streetLight, keys: ['serial'] }],
    ['properties not an object schema', { ...streetLight, properties: { type: 'string' } }],
    ['unknown relationship target', { ...streetLight, relationships: [{ name: 'r', target_type: 'nowhere', cardinality: 'one', via: 'name' }] }],
    ['relationship via no property', { ...streetLight, relationships: [{ name: 'r', target_type: 'street_light', cardinality: 'many', via: 'nope' }] }],
    ['unknown carrier type', { ...streetLight, carrier_types: ['ghost'] }],
    ['property name not an identifier', { ...streetLight, properties: { type: 'object', properties: { light_id: {}, "bad'name": {} } } }],
  ];
  for (const [what, body] of cases) {
    const response = await asAcme('POST', '/api/v1/ontology/entity-types', body);
    t.equal(response.status, 400, what);
    t.equal(response.body.code, 'ENTITY_TYPE_INVALID', what);
  }
  t.same((await asAcme('GET', '/api/v1/ontology/entity-types')).body.items, []);
});

t.test('DELETE is refused while a backing dataset uses the type, unless allow_deprecate', async (t) => {
  const { asAcme, lake } = await ontologyPlatform(t, {}, { workers: false });
  await writeLights(lake, lightRows(2));
  const backing = await lightsBacking(asAcme);
  const refused = await asAcme('DELETE', '/api/v1/ontology/entity-types/street_light');
  t.equal(refused.status, 409);
  t.equal(refused.body.code, 'ENTITY_TYPE_IN_USE');
  t.equal((await asAcme('GET', '/api/v1/ontology/entity-types/street_light')).body.deprecated, false);
  const deprecated = await asAcme('DELETE', '/api/v1/ontology/entity-types/street_light?allow_deprecate=true');
  t.same(deprecated.body, { code: 'street_light', deprecated: true });
  t.equal((await asAcme('GET', '/api/v1/ontology/entity-types/street_light')).body.deprecated, true, 'kept, deprecated');
  t.equal((await asAcme('DELETE', `/api/v1/backing-datasets/${backing.id}`)).status, 204);
  t.equal((await asAcme('DELETE', '/api/v1/ontology/entity-types/street_light')).status, 204);
  t.equal((await asAcme('GET', '/api/v1/ontology/entity-types/street_light')).status, 404);
});

t.test('backing datasets: the read rule, mapping checks, suggestions', async (t) => {
  const { asAcme, asBeta, lake } = await ontologyPlatform(t, {}, { workers: false });
  await writeLights(lake, lightRows(5));
  await asAcme('POST', '/api/v1/ontology/entity-types', streetLight);
  await asBeta('POST', '/api/v1/ontology/entity-types', streetLight);
  const foreign = await asBeta('POST', '/api/v1/backing-datasets', { name: 'stolen', dataset_id: 'raw.acme.lights', entity_type: 'street_light', mappings: [{ column: 'id', property: 'light_id' }], key_columns: ['id'] });
  t.equal(foreign.status, 403, 'another tenant\'s dataset is not readable');
  const suggestForeign = await asBeta('POST', '/api/v1/backing-datasets/suggest-mappings', { dataset_id: 'raw.acme.lights', entity_type: 'street_light' });
  t.equal(suggestForeign.status, 403, 'nor are suggestions on it');
  const bad = await asAcme('POST', '/api/v1/backing-datasets', { name: 'x', dataset_id: 'raw.acme.lights', entity_type: 'street_light', mappings: [{ column: 'label', property: 'name' }], key_columns: ['label'] });
  t.equal(bad.body.code, 'BACKING_DATASET_INVALID', 'key columns must map onto the type\'s keys');
  const suggestion = await asAcme('POST', '/api/v1/backing-datasets/suggest-mappings', { dataset_id: 'raw.acme.lights', entity_type: 'street_light' });
  t.equal(suggestion.status, 200);
  t.same(suggestion.body.mappings.map((m: { column: string; property: string }) => [m.column, m.property]), [['email', 'contact'], ['id', 'light_id'], ['watts', 'watts']],
    'by name (watts), similar name (id ⊂ light_id) and sample values (emails)');
  t.same(suggestion.body.key_columns, ['id']);
  t.same(suggestion.body.unmapped_properties, ['name']);
  t.equal(suggestion.body.method, 'rules', 'no model configured');
  const again = await asAcme('POST', '/api/v1/backing-datasets/suggest-mappings', { dataset_id: 'raw.acme.lights', entity_type: 'street_light' });
  t.same(again.body, suggestion.body, 'deterministic');
  t.same((await asAcme('GET', '/api/v1/backing-datasets')).body.items, [], 'nothing registered by refusals');
});
