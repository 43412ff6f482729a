// The ontology's authorization, the whole matrix:
// public status; reads by any authenticated member; mutations by admin or
// pipeline_editor, or a service or delegation token; users name the tenant,
// service tokens may omit it (their tenant claim); in production and staging
// exact tenant bindings and the ontology:sync capability; and the worker
// checks the binding again.
import t from 'tap';
import { startTestPlatform, tenantWithAdmin } from 'agent-platform/sdk/testing';
import { stored } from '../../pipelines-sources/test/helpers.ts';
import { lightRows, lightsBacking, ontologyPlatform, serviceToken, streetLight, userToken, waitRun, writeLights } from './helpers.ts';

const TYPES = '/api/v1/ontology/entity-types';

t.test('development: roles, tenants, service and delegation tokens', async (t) => {
  const { tp } = await ontologyPlatform(t, {}, { workers: false });
  const call = (method: string, token: string | undefined, tenant?: string, payload?: unknown, url = TYPES) => tp.request({ method, url, token, tenant, payload });
  t.equal((await tp.request({ url: '/api/v1/ontology/status' })).status, 200, 'status is public');
  t.equal((await call('GET', undefined, 'acme')).status, 401, 'reads need authentication');
  const viewer = await userToken(tp, 'viewer', ['acme']);
  const editor = await userToken(tp, 'editor', ['acme'], ['pipeline_editor']);
  t.equal((await call('GET', viewer, 'acme')).status, 200, 'a member reads');
  const refused = await call('POST', viewer, 'acme', streetLight);
  t.equal(refused.status, 403);
  t.equal(refused.body.code, 'ROLE_REQUIRED', 'a member without a role does not declare');
  t.equal((await call('POST', editor, 'acme', streetLight)).status, 201, 'pipeline_editor declares');
  t.equal((await call('GET', viewer, undefined)).body.code, 'TENANT_REQUIRED', 'a user names the tenant');
  t.equal((await call('GET', viewer, 'beta')).body.code, 'TENANT_FORBIDDEN', 'one of its organizations');

  const service = await serviceToken(tp, 'svc:etl');
  t.equal((await call('GET', service, undefined)).body.code, 'TENANT_REQUIRED', 'a service token without tenant claim or header');
  t.equal((await call('GET', service, 'acme')).status, 200, 'a service token with X-Tenant-ID');
  const bound = await serviceToken(tp, 'svc:etl', { tenant: 'acme' });
  const listed = await call('GET', bound, undefined);
  t.equal(listed.status, 200, 'a service token may omit X-Tenant-ID: its tenant claim');
  t.same(listed.body.items.map((i: { code: string }) => i.code), ['street_light']);
  const delegated = await serviceToken(tp, 'svc:portal', { tenant: 'acme', act: { sub: 'alice' } });
  const created = await call('POST', delegated, undefined, { ...streetLight, code: 'pole' });
  t.equal(created.status, 201, 'a delegation token mutates');
  t.equal(created.body.created_by, 'svc:portal');
  t.equal((await call('GET', await serviceToken(tp, 's', { tenant: 'Not Valid' }), undefined)).body.code, 'TENANT_INVALID');
  t.equal((await call('GET', await serviceToken(tp, 's', { tenant: 'ghost' }), undefined)).status, 404);
  // GraphQL takes the same rule.
  const gql = await tp.request({ method: 'POST', url: '/graphql', token: bound, payload: { query: '{ entityTypes { edges { node { code } } } }' } });
  t.same(gql.body.data.entityTypes.edges.map((e: { node: { code: string } }) => e.node.code), ['pole', 'street_light']);
  const gqlNone = await tp.request({ method: 'POST', url: '/graphql', token: service, payload: { query: '{ entityTypes { edges { node { code } } } }' } });
  t.equal(gqlNone.body.errors[0].extensions.code, 'TENANT_REQUIRED');
});

t.test('production: exact tenant bindings and the ontology:sync capability', async (t) => {
  const bindings = JSON.stringify({ acme: 'acme-ontology', '*': 'any', ' beta ': 'beta-ontology' });
  const { tp, acme, beta } = await ontologyPlatform(t, { PLATFORM_ENV: 'production', ONTOLOGY_TENANT_BINDINGS_JSON: bindings }, { workers: false });
  const call = (method: string, token: string, tenant?: string, payload?: unknown) => tp.request({ method, url: TYPES, token, tenant, payload });
  t.equal((await call('GET', acme.token, 'acme')).status, 200, 'a bound tenant');
  const unbound = await call('GET', beta.token, 'beta');
  t.equal(unbound.status, 403, 'neither "*" nor " beta " binds beta');
  t.equal(unbound.body.code, 'ONTOLOGY_TENANT_UNBOUND');
  t.equal((await call('POST', beta.token, 'beta', streetLight)).body.code, 'ONTOLOGY_TENANT_UNBOUND', 'declaration too');
  const noCapability = await call('GET', await serviceToken(tp, 'svc:etl'), 'acme');
  t.equal(noCapability.status, 403);
  t.equal(noCapability.body.code, 'CAPABILITY_REQUIRED');
  const delegatedNoCapability = await call('POST', await serviceToken(tp, 'svc:p', { act: { sub: 'alice' } }), 'acme', streetLight);
  t.equal(delegatedNoCapability.body.code, 'CAPABILITY_REQUIRED', 'delegation tokens too');
  t.equal((await call('GET', await serviceToken(tp, 'svc:etl', { scope: 'ontology:sync' }), 'acme')).status, 200, 'scope grants it');
  const delegated = await call('POST', await serviceToken(tp, 'svc:p', { capabilities: ['ontology:sync'], act: { sub: 'alice' }, tenant: 'acme' }), undefined, streetLight);
  t.equal(delegated.status, 201, 'capabilities grant it; the tenant from the claim');
  t.equal((await call('GET', await serviceToken(tp, 'svc:etl', { scope: 'ontology:sync' }), 'beta')).body.code, 'ONTOLOGY_TENANT_UNBOUND', 'service tokens need the binding too');
  const status = await tp.request({ url: '/api/v1/ontology/status' });
  t.match(status.body, { tenant_bindings_enforced: true });
  const gql = await tp.request({ method: 'POST', url: '/graphql', token: beta.token, tenant: 'beta', payload: { query: '{ entities(filter: { type: "street_light" }) { edges { node { key } } } }' } });
  t.equal(gql.body.errors[0].extensions.code, 'ONTOLOGY_TENANT_UNBOUND', 'entity reads on GraphQL too');
});

t.test('the worker checks the binding again', async (t) => {
  // A platform bound to acme queues a run (no workers); a worker whose bindings lost acme runs it.
  const bound = JSON.stringify({ acme: 'acme' });
  const { tp, asAcme, lake } = await ontologyPlatform(t, { PLATFORM_ENV: 'staging', ONTOLOGY_TENANT_BINDINGS_JSON: bound }, { workers: false });
  await writeLights(lake, lightRows(2));
  const backing = await lightsBacking(asAcme);
  const trigger = await asAcme('POST', `/api/v1/backing-datasets/${backing.id}/sync`);
  t.equal(trigger.status, 202);
  t.match(trigger.body.requested_by, { kind: 'user', sub: 'acme-admin' });
  const worker = await startTestPlatform(t, { databaseUrl: tp.databaseUrl, listen: true, env: { ...tp.env, ONTOLOGY_TENANT_BINDINGS_JSON: JSON.stringify({ other: 'x' }) } });
  const run = await waitRun(asAcme, backing.id, trigger.body.run_id);
  t.match(run, { status: 'failed', applied_sync_spec_fingerprint: null });
  t.match(run.error, /ONTOLOGY_TENANT_BINDINGS_JSON/);
  t.equal((await stored(tp, 'SELECT count(*)::int AS n FROM ontology_entities'))[0].n, 0, 'nothing synced');
  await worker.stop();
  await tenantWithAdmin(tp, 'gamma');
});
