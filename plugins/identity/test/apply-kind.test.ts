// The IdentityPolicy kind of the declarative apply:
// dry-run plans create, noop, patch (with field paths) or error and writes
// nothing; apply creates, and a changed matching spec makes a new version.
import t from 'tap';
import { stored } from '../../pipelines-sources/test/helpers.ts';
import { identityPlatform, PEOPLE_POLICY, userToken } from './helpers.ts';

const { name, ...spec } = PEOPLE_POLICY;
const doc = (s: Record<string, unknown> = spec) => ({ apiVersion: 'agent-platform/v1', kind: 'IdentityPolicy', metadata: { name }, spec: s });
const rows = (tp: Parameters<typeof stored>[0]) => stored(tp, 'SELECT policy_id, version, fingerprint FROM identity_policy_versions ORDER BY 1, 2');

t.test('IdentityPolicy documents: create, noop, patch with a new version, errors', async (t) => {
  const { tp, asAcme } = await identityPlatform(t);
  const planned = await asAcme('POST', '/api/v1/apply/dry-run', { docs: [doc(), { ...doc({ rules: [{ name: 'r', kind: 'fuzzy', fields: [{ field: 'a', threshold: 0.5 }] }] }), metadata: { name: 'bad' } }] });
  t.equal(planned.status, 200, JSON.stringify(planned.body));
  t.match(planned.body.results[0], { kind: 'IdentityPolicy', name: 'people', action: 'create' });
  t.match(planned.body.results[1], { action: 'error', message: /blocking keys/ });
  t.same(await rows(tp), [], 'a dry-run writes nothing');

  const applied = await asAcme('POST', '/api/v1/apply', { docs: [doc()] });
  t.equal(applied.status, 200, JSON.stringify(applied.body));
  const id = applied.body.results[0].id;
  t.equal((await asAcme('GET', `/api/v1/identity-policies/${id}`)).body.version, 1);
  t.match((await asAcme('POST', '/api/v1/apply/dry-run', { docs: [doc()] })).body.results[0], { action: 'noop', id });

  const changed = structuredClone(spec);
  changed.rules[0].name = 'same_tax_number';
  changed.description = 'renamed';
  const patch = await asAcme('POST', '/api/v1/apply/dry-run', { docs: [doc(changed)] });
  t.match(patch.body.results[0], { action: 'patch', id, changes: ['spec.rules', 'spec.description'], message: 'makes version 2' });
  t.equal((await rows(tp)).length, 1);
  await asAcme('POST', '/api/v1/apply', { docs: [doc(changed)] });
  const after = await asAcme('GET', `/api/v1/identity-policies/${id}`);
  t.same([after.body.version, after.body.description, after.body.rules[0].name], [2, 'renamed', 'same_tax_number']);

  const viewer = await userToken(tp, 'viewer', ['acme']);
  t.equal((await tp.request({ method: 'POST', url: '/api/v1/apply', token: viewer, tenant: 'acme', payload: { docs: [doc()] } })).status, 403);
});
