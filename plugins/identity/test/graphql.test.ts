// GraphQL of the identity plugin: policies with their versions, the registry
// and the libraries, for members of the tenant only.
import t from 'tap';
import { identityPlatform, PEOPLE_POLICY } from './helpers.ts';

t.test('identity policies, registry schemas and libraries over GraphQL', async (t) => {
  const { asAcme, asBeta } = await identityPlatform(t);
  const id = (await asAcme('POST', '/api/v1/identity-policies', PEOPLE_POLICY)).body.id;
  const changed = structuredClone(PEOPLE_POLICY);
  changed.rules.pop();
  await asAcme('PUT', `/api/v1/identity-policies/${id}`, changed);
  await asAcme('POST', '/api/v1/schemas/registry/sync-catalog', {});
  const query = `{
    identityPolicies(first: 1) { edges { node { id name version maxBlockSize rules { name kind fields { field normalizers threshold } } blockingKeys { field } } } }
    identityPolicy(id: "${id}") { name versions { version fingerprint } }
    registrySchemas(domain: "general", first: 2) { edges { node { subject source } } pageInfo { hasNextPage } }
    librarySchemas(domain: "urban_services", first: 1) { edges { node { fullId libraryId domain } } }
  }`;
  const res = await asAcme('POST', '/graphql', { query });
  t.equal(res.status, 200);
  t.notOk(res.body.errors, JSON.stringify(res.body.errors));
  const policy = res.body.data.identityPolicies.edges[0].node;
  const versions = res.body.data.identityPolicy.versions;
  t.same([policy.id, policy.version, policy.rules.length, policy.rules[3].kind, policy.blockingKeys], [id, 2, 4, 'FUZZY', [{ field: 'postcode' }]]);
  t.same(policy.rules[3].fields[0], { field: 'name', normalizers: ['whitespace', 'accents', 'case'], threshold: 0.5 });
  t.same(versions.map((v: { version: number }) => v.version), [1, 2]);
  t.equal(res.body.data.identityPolicy.name, 'people');
  t.same(res.body.data.registrySchemas.edges.map((e: { node: { subject: string } }) => e.node.subject), ['sdm/general/address', 'sdm/general/organization']);
  t.equal(res.body.data.registrySchemas.pageInfo.hasNextPage, true);
  t.same(res.body.data.librarySchemas.edges[0].node, { fullId: 'sdm/urban_services/street_light', libraryId: 'sdm', domain: 'urban_services' });

  const other = await asBeta('POST', '/graphql', { query: `{ identityPolicies { edges { node { id } } } identityPolicy(id: "${id}") { id } }` });
  t.same([other.body.data.identityPolicies.edges, other.body.data.identityPolicy], [[], null]);
});
