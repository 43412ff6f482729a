// Schema libraries and the tenant schema registry: browsing, full ids, search, validation errors with JSON-pointer
// paths, registration with immutable versions, bulk (all or nothing),
// discovery from a readable dataset, an idempotent catalog sync, and
// tenant isolation of the registry.
import t from 'tap';
import type { LakehouseApi } from '../../lakehouse/api.ts';
import { identityPlatform, userToken } from './helpers.ts';

const LIGHT = 'sdm/urban_services/street_light';

t.test('libraries: browse, read by id and full id, search, /sdm', async (t) => {
  const { asAcme } = await identityPlatform(t);
  const libraries = await asAcme('GET', '/api/v1/schema-libraries');
  t.same([libraries.status, libraries.body.items[0].id, libraries.body.items[0].domains], [200, 'sdm', ['urban_services', 'general']]);
  t.equal(libraries.body.items[0].schema_count, 8);
  const domains = await asAcme('GET', '/api/v1/schema-libraries/sdm/domains');
  t.same(domains.body.items.map((d: { id: string }) => d.id), ['urban_services', 'general']);
  const urban = await asAcme('GET', '/api/v1/schema-libraries/sdm/domains/urban_services/schemas');
  t.same(urban.body.items.map((s: { schema_id: string }) => s.schema_id), ['street_light', 'waste_container', 'parking_spot', 'occurrence']);
  const general = await asAcme('GET', '/api/v1/schema-libraries/sdm/domains/general/schemas');
  t.same(general.body.items.map((s: { full_id: string }) => s.full_id),
    ['sdm/general/person', 'sdm/general/organization', 'sdm/general/address', 'sdm/general/place']);
  const byId = await asAcme('GET', '/api/v1/schema-libraries/sdm/schemas/street_light');
  const byFullId = await asAcme('GET', `/api/v1/schema-libraries/schema/${LIGHT}`);
  const encoded = await asAcme('GET', `/api/v1/schema-libraries/schema/${encodeURIComponent(LIGHT)}`);
  t.equal(byId.status, 200);
  t.same(byFullId.body, byId.body);
  t.same(encoded.body, byId.body);
  t.equal(byId.body.schema.$schema, 'http://json-schema.org/draft-07/schema#');
  t.equal((await asAcme('GET', '/api/v1/schema-libraries/sdm/schemas/nope')).body.code, 'SCHEMA_NOT_FOUND');
  t.equal((await asAcme('GET', '/api/v1/schema-libraries/nope/domains')).body.code, 'SCHEMA_LIBRARY_NOT_FOUND');
  t.equal((await asAcme('GET', '/api/v1/schema-libraries/sdm/domains/nope/schemas')).body.code, 'SCHEMA_DOMAIN_NOT_FOUND');
  t.equal((await asAcme('GET', '/api/v1/schema-libraries/schema/sdm/nope')).status, 400);
  const search = await asAcme('GET', '/api/v1/schema-libraries/search?q=parking');
  t.equal(search.body.items[0].full_id, 'sdm/urban_services/parking_spot');
  const byProperty = await asAcme('GET', '/api/v1/schema-libraries/search?q=fill_level');
  t.same(byProperty.body.items.map((s: { schema_id: string }) => s.schema_id), ['waste_container']);
  const sdm = await asAcme('GET', '/api/v1/sdm');
  t.same([sdm.status, sdm.body.schema_count, sdm.body.libraries[0].domains[1].schemas[0].full_id], [200, 8, 'sdm/general/person']);
  // Every built-in schema is one Ajv accepts.
  for (const domain of sdm.body.libraries[0].domains) {
    for (const schema of domain.schemas) t.ok(schema.schema.type === 'object', schema.full_id);
  }
});

t.test('validation against a library schema: errors with JSON-pointer paths', async (t) => {
  const { asAcme } = await identityPlatform(t);
  const valid = await asAcme('POST', `/api/v1/schema-libraries/validate/${LIGHT}`, {
    data: { id: 'L-1', status: 'ok', location: { type: 'Point', coordinates: [-9.14, 38.71] }, power_watts: 60 },
  });
  t.same(valid.body, { full_id: LIGHT, valid: true, errors: [] });
  const invalid = await asAcme('POST', `/api/v1/schema-libraries/validate/${LIGHT}`, {
    data: { id: 'L-1', status: 'broken', location: { type: 'Point', coordinates: [-9.14, 138.71] }, power_watts: -1, color: 'red',
      address: { postal_code: '!!' } },
  });
  t.equal(invalid.status, 200);
  t.equal(invalid.body.valid, false);
  const paths = invalid.body.errors.map((e: { path: string }) => e.path).sort();
  t.same(paths, ['', '/address/postal_code', '/location/coordinates/1', '/power_watts', '/status']);
  t.match(invalid.body.errors.find((e: { path: string }) => e.path === '').message, /color/);
  const missing = await asAcme('POST', '/api/v1/schema-libraries/validate/sdm/general/person', { data: { id: 'p' } });
  t.same(missing.body.errors, [{ path: '/name', message: 'must have required property \'name\'', keyword: 'required' }]);
  t.equal((await asAcme('POST', '/api/v1/schema-libraries/validate/sdm/general/nope', { data: {} })).status, 404);
});

t.test('registry: versions, bulk, discovery, catalog sync, search, validate, isolation, roles', async (t) => {
  const { tp, asAcme, asBeta } = await identityPlatform(t);
  const schema = { type: 'object', required: ['code'], properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' }, size: { type: 'integer' } } };
  const first = await asAcme('POST', '/api/v1/schemas/registry/register', { subject: 'asset.bench', domain: 'parks', description: 'A park bench', schema });
  t.same([first.status, first.body.version, first.body.created, first.body.source], [201, 1, true, 'registered']);
  const again = await asAcme('POST', '/api/v1/schemas/registry/register', { subject: 'asset.bench', schema: { properties: schema.properties, required: ['code'], type: 'object' } });
  t.same([again.status, again.body.version, again.body.created, again.body.domain], [200, 1, false, 'parks'], 'same schema in another key order: unchanged');
  const changed = await asAcme('POST', '/api/v1/schemas/registry/register', { subject: 'asset.bench', schema: { ...schema, required: ['code', 'size'] } });
  t.same([changed.status, changed.body.version], [201, 2]);
  const bad = await asAcme('POST', '/api/v1/schemas/registry/register', { subject: 'bad', schema: { type: 'nonsense' } });
  t.same([bad.status, bad.body.code], [400, 'SCHEMA_INVALID']);

  const bulk = await asAcme('POST', '/api/v1/schemas/registry/bulk-register', { schemas: [
    { subject: 'asset.tree', schema: { type: 'object' } }, { subject: 'asset.bench', schema: { ...schema, required: ['code', 'size'] } },
  ] });
  t.same([bulk.status, bulk.body.created, bulk.body.unchanged], [200, 1, 1]);
  const badBulk = await asAcme('POST', '/api/v1/schemas/registry/bulk-register', { schemas: [
    { subject: 'asset.lamp', schema: { type: 'object' } }, { subject: 'asset.pole', schema: { type: 'object', properties: { a: { type: 12 } } } },
  ] });
  t.same([badBulk.status, badBulk.body.code], [400, 'SCHEMA_INVALID']);
  t.equal((await asAcme('GET', '/api/v1/schemas/registry?subject=asset.lamp')).body.total, 0, 'all or nothing');

  const lake = tp.platform.server.plugins.lakehouse.api as LakehouseApi;
  await lake.ensureDataset('acme', { datasetId: 'raw.acme.lamps', producer: { kind: 'source_stream', id: 'test' }, primaryKey: ['id'],
    columns: [{ name: 'id', type: 'text' }, { name: 'watts', type: 'double' }, { name: 'installed', type: 'date' }] });
  await lake.ensureDataset('beta', { datasetId: 'raw.beta.lamps', producer: { kind: 'source_stream', id: 'test' }, columns: [{ name: 'id', type: 'text' }] });
  const discovered = await asAcme('POST', '/api/v1/schemas/registry/discover-and-register', { dataset_id: 'raw.acme.lamps', domain: 'lighting' });
  t.same([discovered.status, discovered.body.subject, discovered.body.source, discovered.body.dataset_id], [201, 'raw.acme.lamps', 'discovered', 'raw.acme.lamps']);
  t.same(discovered.body.schema.required, ['id']);
  t.same(discovered.body.schema.properties.watts, { type: ['number', 'null'] });
  t.same(discovered.body.schema.properties.installed, { type: ['string', 'null'], format: 'date' });
  t.equal((await asAcme('POST', '/api/v1/schemas/registry/discover-and-register', { dataset_id: 'raw.beta.lamps' })).status, 403);

  const synced = await asAcme('POST', '/api/v1/schemas/registry/sync-catalog', {});
  t.same(synced.body, { added: 8, updated: 0, unchanged: 0 });
  t.same((await asAcme('POST', '/api/v1/schemas/registry/sync-catalog', { library_id: 'sdm' })).body, { added: 0, updated: 0, unchanged: 8 });
  const listed = await asAcme('GET', '/api/v1/schemas/registry?source=library');
  t.equal(listed.body.total, 8);
  t.equal((await asAcme('GET', '/api/v1/schemas/registry')).body.total, 11);

  const search = await asAcme('POST', '/api/v1/schemas/registry/search', { q: 'bench' });
  t.same(search.body.items.map((i: { subject: string; version: number }) => [i.subject, i.version]), [['asset.bench', 2]]);
  const byProperty = await asAcme('POST', '/api/v1/schemas/registry/search', { q: 'fill_level' });
  t.same(byProperty.body.items.map((i: { subject: string }) => i.subject), ['sdm/urban_services/waste_container']);

  const check = await asAcme('POST', '/api/v1/schemas/registry/validate', { subject: 'asset.bench', data: { code: 'abc' } });
  t.same([check.body.version, check.body.valid, check.body.errors.map((e: { path: string }) => e.path).sort()], [2, false, ['/code', '/size']]);
  const v1 = await asAcme('POST', '/api/v1/schemas/registry/validate', { subject: 'asset.bench', version: 1, data: { code: 'ABC' } });
  t.same([v1.body.version, v1.body.valid], [1, true]);
  // A pattern runs on the linear-time engine: a catastrophic one still answers.
  await asAcme('POST', '/api/v1/schemas/registry/register', { subject: 'redos', schema: { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } } });
  const redos = await asAcme('POST', '/api/v1/schemas/registry/validate', { subject: 'redos', data: { s: `${'a'.repeat(50_000)}!` } });
  t.same([redos.status, redos.body.valid], [200, false]);

  // Another tenant's registry is its own.
  t.equal((await asBeta('GET', '/api/v1/schemas/registry')).body.total, 0);
  t.equal((await asBeta('POST', '/api/v1/schemas/registry/validate', { subject: 'asset.bench', data: {} })).status, 404);
  t.same((await asBeta('POST', '/api/v1/schemas/registry/search', { q: 'bench' })).body.items, []);

  const viewer = await userToken(tp, 'viewer', ['acme']);
  const asViewer = (method: string, url: string, payload?: unknown) => tp.request({ method, url, token: viewer, tenant: 'acme', payload });
  t.equal((await asViewer('GET', '/api/v1/schemas/registry')).status, 200);
  t.equal((await asViewer('POST', '/api/v1/schemas/registry/validate', { subject: 'asset.bench', data: {} })).status, 200);
  t.equal((await asViewer('POST', '/api/v1/schemas/registry/register', { subject: 'x', schema: {} })).status, 403);
  t.equal((await asViewer('POST', '/api/v1/schemas/registry/sync-catalog', {})).status, 403);
});
