// The live_ontology preflight against a second platform on
// loopback acting as the ontology service: a valid backing dataset passes
// every check; a missing property, bad credentials and an unreachable
// service make it invalid; nothing is created or modified on either side.
import t from 'tap';
import { startTestPlatform, tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';
import { stored } from '../../pipelines-sources/test/helpers.ts';
import { LIGHTS, lakeOf, lightRows, serviceToken, streetLight, writeLights } from './helpers.ts';

const remoteType = {
  ...streetLight,
  properties: { type: 'object', properties: { light_id: { type: 'string' }, name: { type: 'string' } } },
};

async function localPlatform(t: Parameters<typeof startTestPlatform>[0], env: Record<string, string>, databaseUrl?: string) {
  const tp = await startTestPlatform(t, { databaseUrl, env: { ONTOLOGY_ALLOW_PRIVATE_NETWORKS: 'true', ONTOLOGY_TENANT_BINDINGS_JSON: JSON.stringify({ acme: 'city' }), ...env } });
  return tp;
}

/** The BackingDataset document's plan, as POST /apply/dry-run with live_ontology answers it to acme's admin. */
async function plan(tp: TestPlatform, mappings: { column: string; property: string }[]) {
  const token = (await tp.request({ method: 'POST', url: '/api/admin/users/acme-admin/tokens', token: tp.adminToken })).body.access_token as string;
  const answer = await tp.request({
    method: 'POST', url: '/api/v1/apply/dry-run', token, tenant: 'acme',
    payload: {
      live_ontology: true,
      docs: [{ apiVersion: 'agent-platform/v1', kind: 'BackingDataset', metadata: { name: 'lights' }, spec: { dataset_id: LIGHTS, entity_type: 'street_light', mappings, key_columns: ['id'] } }],
    },
  });
  if (answer.status !== 200) throw new Error(`dry-run: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.results[0] as { action: string; message?: string; execute?: unknown; preflight?: { valid: boolean; checks: { check: string; ok: boolean; message?: string }[] } };
}

t.test('live preflight against a second platform: valid, missing property, bad credentials, unreachable; nothing changed', async (t) => {
  const remote = await startTestPlatform(t, { listen: true });
  const city = await tenantWithAdmin(remote, 'city');
  t.equal((await remote.request({ method: 'POST', url: '/api/v1/ontology/entity-types', token: city.token, tenant: 'city', payload: remoteType })).status, 201);
  const token = await serviceToken(remote, 'svc:pipelines');
  const local = await localPlatform(t, { ONTOLOGY_BASE_URL: remote.url(''), ONTOLOGY_TOKEN: token });
  const acme = await tenantWithAdmin(local, 'acme');
  await writeLights(lakeOf(local), lightRows(2));
  t.equal((await local.request({ method: 'POST', url: '/api/v1/ontology/entity-types', token: acme.token, tenant: 'acme', payload: streetLight })).status, 201);

  const valid = await plan(local, [{ column: 'id', property: 'light_id' }, { column: 'label', property: 'name' }]);
  t.equal(valid.action, 'create');
  t.same(valid.preflight, {
    valid: true,
    checks: ['reachable', 'authenticated', 'entity_type', 'properties', 'keys', 'relationships', 'carrier_types'].map((check) => ({ check, ok: true })),
  });

  const missing = await plan(local, [{ column: 'id', property: 'light_id' }, { column: 'label', property: 'name' }, { column: 'watts', property: 'watts' }]);
  t.equal(missing.action, 'error');
  t.equal(missing.preflight!.valid, false);
  t.match(missing.preflight!.checks.find((c) => c.check === 'properties'), { ok: false, message: 'missing properties: watts' });
  t.notOk(missing.execute, 'nothing to execute');

  const badCredentials = await localPlatform(t, { ONTOLOGY_BASE_URL: remote.url(''), ONTOLOGY_TOKEN: 'not-a-token' }, local.databaseUrl);
  const refused = await plan(badCredentials, [{ column: 'id', property: 'light_id' }]);
  t.equal(refused.action, 'error');
  t.match(refused.preflight!.checks.at(-1), { check: 'authenticated', ok: false, message: /HTTP 401/ });
  t.notMatch(JSON.stringify(refused), /not-a-token/, 'the token never appears');

  const unreachable = await localPlatform(t, { ONTOLOGY_BASE_URL: 'http://127.0.0.1:9', ONTOLOGY_TOKEN: token }, local.databaseUrl);
  const down = await plan(unreachable, [{ column: 'id', property: 'light_id' }]);
  t.equal(down.action, 'error');
  t.match(down.preflight!.checks, [{ check: 'reachable', ok: false, message: /unreachable/ }]);

  const guarded = await localPlatform(t, { ONTOLOGY_BASE_URL: remote.url(''), ONTOLOGY_TOKEN: token, ONTOLOGY_ALLOW_PRIVATE_NETWORKS: 'false' }, local.databaseUrl);
  t.match((await plan(guarded, [{ column: 'id', property: 'light_id' }])).preflight!.checks, [{ check: 'reachable', ok: false }], 'loopback refused by the outbound guard unless allowed');

  t.same(await stored(local, 'SELECT name FROM ontology_backing_datasets'), [], 'nothing created locally');
  t.same(await stored(remote, 'SELECT code, version FROM ontology_entity_type_versions'), [{ code: 'street_light', version: 1 }], 'nothing modified remotely');
});

t.test('without a binding in production the preflight is an error', async (t) => {
  const local = await localPlatform(t, { PLATFORM_ENV: 'production', ONTOLOGY_TENANT_BINDINGS_JSON: JSON.stringify({ other: 'x' }), ONTOLOGY_BASE_URL: 'http://127.0.0.1:9' });
  await tenantWithAdmin(local, 'acme');
  await writeLights(lakeOf(local), lightRows(1));
  const refused = await plan(local, [{ column: 'id', property: 'light_id' }]);
  t.equal(refused.action, 'error');
  t.match(refused.message, /ONTOLOGY_TENANT_BINDINGS_JSON/);
});
