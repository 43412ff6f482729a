// Identity policies: CRUD, immutable versions, clone,
// delete, validation, roles and tenant isolation.
import t from 'tap';
import { identityPlatform, PEOPLE_POLICY, userToken } from './helpers.ts';

t.test('create, read, replace with versions, clone, delete', async (t) => {
  const { asAcme, asBeta } = await identityPlatform(t);
  const created = await asAcme('POST', '/api/v1/identity-policies', PEOPLE_POLICY);
  t.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id as string;
  t.equal(created.body.version, 1);
  t.match(created.body.fingerprint, /^[0-9a-f]{64}$/);
  // Normalizers come back in their canonical order; the default block size is filled in.
  t.same(created.body.rules[3].fields[0].normalizers, ['whitespace', 'accents', 'case']);
  t.equal(created.body.max_block_size, 1000);

  t.equal((await asAcme('POST', '/api/v1/identity-policies', PEOPLE_POLICY)).body.code, 'IDENTITY_POLICY_EXISTS');
  const list = await asAcme('GET', '/api/v1/identity-policies');
  t.same([list.status, list.body.total, list.body.items[0].id], [200, 1, id]);

  // Same spec with another normalizer order and a new description: no new version.
  const reordered = structuredClone(PEOPLE_POLICY);
  reordered.rules[3].fields[0].normalizers = ['case', 'whitespace', 'accents'];
  const same = await asAcme('PUT', `/api/v1/identity-policies/${id}`, { ...reordered, description: 'renamed' });
  t.same([same.status, same.body.version, same.body.fingerprint, same.body.description], [200, 1, created.body.fingerprint, 'renamed']);

  // A changed threshold: version 2; version 1 stays as it was.
  const changed = structuredClone(PEOPLE_POLICY);
  changed.rules[3].fields[0].threshold = 0.7;
  const v2 = await asAcme('PUT', `/api/v1/identity-policies/${id}`, changed);
  t.same([v2.status, v2.body.version], [200, 2]);
  t.not(v2.body.fingerprint, created.body.fingerprint);
  const versions = await asAcme('GET', `/api/v1/identity-policies/${id}/versions`);
  t.same(versions.body.items.map((v: { version: number }) => v.version), [1, 2]);
  const v1 = await asAcme('GET', `/api/v1/identity-policies/${id}/versions/1`);
  t.same([v1.status, v1.body.rules[3].fields[0].threshold, v1.body.fingerprint], [200, 0.5, created.body.fingerprint]);
  t.equal((await asAcme('GET', `/api/v1/identity-policies/${id}/versions/3`)).body.code, 'IDENTITY_POLICY_VERSION_NOT_FOUND');

  const clone = await asAcme('POST', `/api/v1/identity-policies/${id}/clone`, { name: 'people_v1_copy', version: 1 });
  t.same([clone.status, clone.body.version, clone.body.fingerprint], [201, 1, created.body.fingerprint]);
  t.not(clone.body.id, id);

  // Another tenant sees none of it.
  t.equal((await asBeta('GET', `/api/v1/identity-policies/${id}`)).status, 404);
  t.equal((await asBeta('GET', '/api/v1/identity-policies')).body.total, 0);
  t.equal((await asBeta('DELETE', `/api/v1/identity-policies/${id}`)).status, 404);

  t.equal((await asAcme('DELETE', `/api/v1/identity-policies/${id}`)).status, 204);
  t.equal((await asAcme('GET', `/api/v1/identity-policies/${id}`)).status, 404);
  t.equal((await asAcme('GET', '/api/v1/identity-policies')).body.total, 1);
  // The name is free again.
  t.equal((await asAcme('POST', '/api/v1/identity-policies', PEOPLE_POLICY)).status, 201);
});

t.test('bad policies are 400s that store nothing', async (t) => {
  const { asAcme } = await identityPlatform(t);
  const cases: [string, unknown, string | undefined][] = [
    ['unknown normalizer', { name: 'p', rules: [{ name: 'r', kind: 'normalized', fields: [{ field: 'a', normalizers: ['soundex'] }] }] }, 'IDENTITY_NORMALIZER_UNKNOWN'],
    ['unblocked fuzzy rule', { name: 'p', rules: [{ name: 'r', kind: 'fuzzy', fields: [{ field: 'a', threshold: 0.5 }] }] }, 'IDENTITY_POLICY_UNBLOCKED'],
    ['fuzzy rule without threshold', { name: 'p', rules: [{ name: 'r', kind: 'fuzzy', fields: [{ field: 'a' }] }] }, 'IDENTITY_POLICY_INVALID'],
    ['normalizers on an exact rule', { name: 'p', rules: [{ name: 'r', kind: 'exact', fields: [{ field: 'a', normalizers: ['case'] }] }] }, 'IDENTITY_POLICY_INVALID'],
    ['two rules of one name', { name: 'p', rules: [{ name: 'r', kind: 'exact', fields: [{ field: 'a' }] }, { name: 'r', kind: 'exact', fields: [{ field: 'b' }] }] }, 'IDENTITY_POLICY_INVALID'],
    ['field name with a quote', { name: 'p', rules: [{ name: 'r', kind: 'exact', fields: [{ field: "a'b" }] }] }, undefined],
    ['no rules', { name: 'p', rules: [] }, undefined],
  ];
  for (const [label, body, code] of cases) {
    const res = await asAcme('POST', '/api/v1/identity-policies', body);
    t.equal(res.status, 400, label);
    if (code) t.equal(res.body.code, code, label);
  }
  t.equal((await asAcme('GET', '/api/v1/identity-policies')).body.total, 0);
});

t.test('members read and dry-run; only admin or pipeline_editor change', async (t) => {
  const { tp, asAcme } = await identityPlatform(t);
  const id = (await asAcme('POST', '/api/v1/identity-policies', PEOPLE_POLICY)).body.id;
  const viewer = await userToken(tp, 'viewer', ['acme']);
  const editorToken = await userToken(tp, 'editor', ['acme'], ['pipeline_editor']);
  const as = (token: string) => (method: string, url: string, payload?: unknown) => tp.request({ method, url, token, tenant: 'acme', payload });
  t.equal((await as(viewer)('GET', `/api/v1/identity-policies/${id}`)).status, 200);
  t.equal((await as(viewer)('POST', `/api/v1/identity-policies/${id}/dry-run`, { records: [] })).status, 200);
  t.equal((await as(viewer)('PUT', `/api/v1/identity-policies/${id}`, PEOPLE_POLICY)).status, 403);
  t.equal((await as(viewer)('POST', `/api/v1/identity-policies/${id}/clone`, { name: 'x' })).status, 403);
  t.equal((await as(viewer)('DELETE', `/api/v1/identity-policies/${id}`)).status, 403);
  t.equal((await as(editorToken)('POST', `/api/v1/identity-policies/${id}/clone`, { name: 'x' })).status, 201);
});
