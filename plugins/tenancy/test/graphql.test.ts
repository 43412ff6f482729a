// The tenancy part of the GraphQL facade: the viewer and its tenant, the
// current tenant and its clients as a Relay connection (both ways, with
// totalCount), under the same auth and tenant rules as REST.
import t from 'tap';
import { startTestPlatform, tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';

const QUERY = /* GraphQL */ `
  query Tenant($first: Int, $after: String) {
    viewer { kind sub tenantId }
    tenant {
      id
      displayName
      clients(first: $first, after: $after) {
        edges { cursor node { id clientKey name } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`;

async function graphql(
  tp: TestPlatform,
  query: string,
  variables: Record<string, unknown> = {},
  auth: { token?: string; apiKey?: string; tenant?: string } = {},
) {
  return tp.request({ method: 'POST', url: '/graphql', payload: { query, variables }, headers: { 'content-type': 'application/json' }, ...auth });
}

t.test('a user sees its tenant and pages through its clients', async (t) => {
  const tp = await startTestPlatform(t);
  const a = await tenantWithAdmin(tp, 'gq-a');
  const b = await tenantWithAdmin(tp, 'gq-b');
  // Every tenant starts with its default client: renamed here, then two more.
  const renameDefault = async (token: string, name: string) => {
    const [byDefault] = (await tp.request({ url: '/api/admin/clients', token })).body.items;
    return (await tp.request({ method: 'PATCH', url: `/api/admin/clients/${byDefault.id}`, token, payload: { name } })).body;
  };
  const made: { id: number; client_key: string; name: string }[] = [await renameDefault(a.token, 'web')];
  for (const name of ['mobile', 'kiosk']) {
    made.push((await tp.request({ method: 'POST', url: '/api/admin/clients', token: a.token, payload: { name } })).body);
  }
  await renameDefault(b.token, 'b-web');

  const first = await graphql(tp, QUERY, { first: 2 }, { token: a.token });
  t.equal(first.status, 200);
  t.notOk(first.body.errors, 'no errors');
  t.same(first.body.data.viewer, { kind: 'user', sub: 'gq-a-admin', tenantId: 'gq-a' });
  t.equal(first.body.data.tenant.id, 'gq-a');
  t.equal(first.body.data.tenant.displayName, 'gq-a');
  const page1 = first.body.data.tenant.clients;
  t.same(
    page1.edges.map((e: { node: unknown }) => e.node),
    made.slice(0, 2).map((c) => ({ id: String(c.id), clientKey: c.client_key, name: c.name })),
    'the first two clients, in order, with camelCase fields',
  );
  t.ok(page1.edges.every((e: { cursor: unknown }) => typeof e.cursor === 'string' && e.cursor.length > 0), 'every edge has a cursor');
  t.equal(page1.pageInfo.hasNextPage, true);
  t.equal(page1.pageInfo.endCursor, page1.edges[1].cursor, 'endCursor is the last edge\'s cursor');

  const second = await graphql(tp, QUERY, { first: 2, after: page1.pageInfo.endCursor }, { token: a.token });
  t.notOk(second.body.errors);
  const page2 = second.body.data.tenant.clients;
  t.same(page2.edges.map((e: { node: { name: string } }) => e.node.name), ['kiosk'], 'after the cursor: the rest');
  t.equal(page2.pageInfo.hasNextPage, false);
  t.equal(page2.pageInfo.endCursor, page2.edges[0].cursor);

  const fromFirst = await graphql(tp, QUERY, { first: 1, after: page1.edges[0].cursor }, { token: a.token });
  t.same(fromFirst.body.data.tenant.clients.edges.map((e: { node: { name: string } }) => e.node.name), ['mobile'], 'any edge cursor resumes after it');
  t.equal(fromFirst.body.data.tenant.clients.pageInfo.hasNextPage, true);

  const literal = await graphql(tp, '{ tenant { clients(first: 10) { edges { node { name } } } } }', {}, { token: a.token });
  t.same(literal.body.data.tenant.clients.edges.map((e: { node: { name: string } }) => e.node.name), ['web', 'mobile', 'kiosk'], 'only the tenant\'s own clients');

  const BACKWARD = `query($last: Int, $before: String) { viewer { tenant { id displayName } }
    clients(last: $last, before: $before) { edges { node { name } } pageInfo { hasPreviousPage hasNextPage startCursor } totalCount } }`;
  const end = await graphql(tp, BACKWARD, { last: 2 }, { token: a.token });
  t.notOk(end.body.errors, JSON.stringify(end.body.errors));
  t.same(end.body.data.viewer.tenant, { id: 'gq-a', displayName: 'gq-a' }, 'the viewer\'s tenant as an object');
  t.same(end.body.data.clients.edges.map((e: { node: { name: string } }) => e.node.name), ['mobile', 'kiosk'], 'last: the end of the list, in order');
  t.match(end.body.data.clients, { pageInfo: { hasPreviousPage: true, hasNextPage: false }, totalCount: 3 });
  const start = await graphql(tp, BACKWARD, { last: 5, before: end.body.data.clients.pageInfo.startCursor }, { token: a.token });
  t.same(start.body.data.clients.edges.map((e: { node: { name: string } }) => e.node.name), ['web'], 'before the start cursor: the rest');
  t.match(start.body.data.clients, { pageInfo: { hasPreviousPage: false, hasNextPage: true }, totalCount: 3 });

  const tooMany = await graphql(tp, QUERY, { first: 1000 }, { token: a.token });
  t.equal(tooMany.body.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', 'first is bounded');
  const badCursor = await graphql(tp, QUERY, { first: 1, after: '%%%' }, { token: a.token });
  t.ok(badCursor.body.errors?.length, 'a malformed cursor is an error');
  t.not(badCursor.body.errors?.[0]?.extensions?.code, 'INTERNAL_SERVER_ERROR', 'a client error, not an internal one');

  const foreign = await graphql(tp, QUERY, { first: 2 }, { token: a.token, tenant: 'gq-b' });
  t.equal(foreign.status, 403, 'X-Tenant-ID of another tenant is forbidden, as in REST');
  t.equal(foreign.body.code, 'TENANT_FORBIDDEN');
  const asB = await graphql(tp, '{ tenant { id clients { edges { node { name } } } } }', {}, { token: b.token });
  t.same(asB.body.data.tenant, { id: 'gq-b', clients: { edges: [{ node: { name: 'b-web' } }] } });
});

t.test('without auth, and with an API key', async (t) => {
  const tp = await startTestPlatform(t);
  const a = await tenantWithAdmin(tp, 'gk-a');
  await tenantWithAdmin(tp, 'gk-b');
  const client = (await tp.request({ method: 'POST', url: '/api/admin/clients', token: a.token, payload: { name: 'web' } })).body;
  const key = (await tp.request({ method: 'POST', url: '/api/admin/api-keys', token: a.token, payload: { name: 'k', client_id: client.id } })).body.key;

  const anonymous = await graphql(tp, QUERY, { first: 2 });
  t.equal(anonymous.status, 200);
  t.equal(anonymous.body.data.viewer, null, 'the anonymous viewer is null');
  t.equal(anonymous.body.data.tenant, null);
  t.equal(anonymous.body.errors?.length, 1);
  t.equal(anonymous.body.errors[0].extensions.code, 'UNAUTHENTICATED', 'tenant needs authentication');
  t.same(anonymous.body.errors[0].path, ['tenant']);
  const anonymousClients = await graphql(tp, '{ clients { edges { node { id } } } }');
  t.equal(anonymousClients.body.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');
  const anonymousHeader = await graphql(tp, QUERY, {}, { tenant: 'gk-a' });
  t.equal(anonymousHeader.body.data?.tenant, null, 'X-Tenant-ID alone grants nothing');
  t.equal(anonymousHeader.body.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');

  const badToken = await graphql(tp, QUERY, {}, { token: 'not.a.token' });
  t.equal(badToken.status, 401, 'an invalid token is refused, not treated as anonymous');
  const badKey = await graphql(tp, QUERY, {}, { apiKey: `pk_gk-a_${'0'.repeat(64)}` });
  t.equal(badKey.status, 401, 'so is an invalid API key');

  // As in REST (GET /api/admin/tenants/{id} and /api/admin/clients take bearer tokens only).
  const withKey = await graphql(tp, QUERY, { first: 5 }, { apiKey: key });
  t.equal(withKey.status, 200);
  t.match(withKey.body.data.viewer, { kind: 'api_key', tenantId: 'gk-a' }, 'an API key sees who it is');
  const keyViewerTenant = await graphql(tp, '{ viewer { tenantId tenant { id } } }', {}, { apiKey: key });
  t.same(keyViewerTenant.body.data.viewer, { tenantId: 'gk-a', tenant: null }, 'but not its tenant object');
  t.match(keyViewerTenant.body.errors, [{ path: ['viewer', 'tenant'], extensions: { code: 'FORBIDDEN' } }]);
  t.equal(withKey.body.data.tenant, null, 'but not the tenant and its clients (client keys)');
  t.match(withKey.body.errors, [{ path: ['tenant'], extensions: { code: 'FORBIDDEN' } }]);
  const keyClients = await graphql(tp, '{ clients { edges { node { id clientKey } } } }', {}, { apiKey: key });
  t.equal(keyClients.body.data, null);
  t.equal(keyClients.body.errors?.[0]?.extensions?.code, 'FORBIDDEN');
  t.ok(client.id, 'the client exists');
  const keyElsewhere = await graphql(tp, QUERY, {}, { apiKey: key, tenant: 'gk-b' });
  t.equal(keyElsewhere.status, 403);
  t.equal(keyElsewhere.body.code, 'TENANT_FORBIDDEN');

  const superAdmin = await graphql(tp, '{ tenant { id } }', {}, { token: tp.adminToken });
  t.equal(superAdmin.body.errors?.[0]?.extensions?.code, 'TENANT_REQUIRED', 'a cross-tenant caller must name the tenant');
  const superAdminB = await graphql(tp, '{ tenant { id } }', {}, { token: tp.adminToken, tenant: 'gk-b' });
  t.same(superAdminB.body.data, { tenant: { id: 'gk-b' } });
});
