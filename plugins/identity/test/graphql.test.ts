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
    registrySchemas(filter: { domain: "general" }, first: 2) { edges { node { subject source datasetId dataset { id } } } pageInfo { hasNextPage } }
    librarySchemas(filter: { domain: "urban_services" }, first: 1) { edges { node { id libraryId key domain library { id name } } } }
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
  t.same(res.body.data.registrySchemas.edges[0].node.dataset, null, 'a library schema comes from no dataset');
  t.equal(res.body.data.registrySchemas.pageInfo.hasNextPage, true);
  t.match(res.body.data.librarySchemas.edges[0].node, {
    id: 'sdm/urban_services/street_light', libraryId: 'sdm', key: 'street_light', domain: 'urban_services', library: { id: 'sdm', name: String },
  });

  const other = await asBeta('POST', '/graphql', { query: `{ identityPolicies { edges { node { id } } } identityPolicy(id: "${id}") { id } }` });
  t.same([other.body.data.identityPolicies.edges, other.body.data.identityPolicy], [[], null]);
});

t.test('backward pages with totalCount: policies in creation order, registry schemas by subject', async (t) => {
  const { asAcme } = await identityPlatform(t);
  const ids: string[] = [];
  for (const name of ['first', 'second', 'third']) ids.push((await asAcme('POST', '/api/v1/identity-policies', { ...PEOPLE_POLICY, name })).body.id);
  const gql = async (query: string) => {
    const res = await asAcme('POST', '/graphql', { query });
    t.notOk(res.body.errors, JSON.stringify(res.body.errors));
    return res.body.data;
  };
  const policyIds = (page: { edges: { node: { id: string } }[] }) => page.edges.map((e) => e.node.id);

  const end = (await gql('{ identityPolicies(last: 2) { edges { node { id } } pageInfo { hasPreviousPage hasNextPage startCursor } totalCount } }')).identityPolicies;
  t.same(policyIds(end), ids.slice(1), 'last: the end of the list, in list order');
  t.match(end, { pageInfo: { hasPreviousPage: true, hasNextPage: false }, totalCount: 3 });
  const before = (await gql(`{ identityPolicies(last: 5, before: "${end.pageInfo.startCursor}") { edges { node { id } } pageInfo { hasPreviousPage hasNextPage } } }`)).identityPolicies;
  t.same(policyIds(before), ids.slice(0, 1));
  t.match(before.pageInfo, { hasPreviousPage: false, hasNextPage: true });
  const forward = (await gql('{ identityPolicies(first: 2) { edges { node { id } } pageInfo { endCursor } } }')).identityPolicies;
  const rest = (await gql(`{ identityPolicies(first: 2, after: "${forward.pageInfo.endCursor}") { edges { node { id } } } }`)).identityPolicies;
  t.same([...policyIds(forward), ...policyIds(rest)], ids, 'forward pages meet the backward ones');

  await asAcme('POST', '/api/v1/schemas/registry/sync-catalog', {});
  const subjects = (await asAcme('GET', '/api/v1/schemas/registry?domain=general&limit=500')).body.items.map((item: { subject: string }) => item.subject);
  t.ok(subjects.length >= 3);
  const last = (await gql('{ registrySchemas(filter: { domain: "general" }, last: 2) { edges { node { subject } } pageInfo { hasPreviousPage startCursor } totalCount } }')).registrySchemas;
  t.same(last.edges.map((e: { node: { subject: string } }) => e.node.subject), subjects.slice(-2));
  t.match(last, { pageInfo: { hasPreviousPage: true }, totalCount: subjects.length });
  const earlier = (await gql(`{ registrySchemas(filter: { domain: "general" }, last: 1, before: "${last.pageInfo.startCursor}") { edges { node { subject } } } }`)).registrySchemas;
  t.same(earlier.edges.map((e: { node: { subject: string } }) => e.node.subject), subjects.slice(-3, -2));
  const libraries = (await gql('{ librarySchemas(filter: { libraryId: "sdm", domain: "urban_services" }, last: 1) { edges { node { id } } totalCount } }')).librarySchemas;
  t.equal(libraries.edges.length, 1);
  t.ok(libraries.totalCount >= 1);

  const bad = await asAcme('POST', '/graphql', { query: '{ librarySchemas(filter: { libraryId: "Not A Library" }) { totalCount } }' });
  t.equal(bad.body.errors[0].extensions.code, 'BAD_USER_INPUT', 'a malformed id in a filter is bad input');
  const lookup = await asAcme('POST', '/graphql', { query: '{ identityPolicy(id: "nope") { id } }' });
  t.same([lookup.body.errors, lookup.body.data.identityPolicy], [undefined, null], 'a malformed id in a lookup is not found');
});
