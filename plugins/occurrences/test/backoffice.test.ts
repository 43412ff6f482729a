// The staff backoffice: the list's filters,
// sorting and pagination, the detail, roles (staff or admin), tenant
// isolation, and the GraphQL connection with the same access.
import t from 'tap';
import { runCli, tenantWithAdmin } from 'agent-platform/sdk/testing';
import { api, occurrencesPlatform, report } from './helpers.ts';

t.test('staff list occurrences with filters, sorting and pages', async (t) => {
  let offsetMs = 0;
  const clock = { now: () => new Date(Date.parse('2026-03-01T10:00:00Z') + offsetMs) };
  const { tp, admin, staff, member } = await occurrencesPlatform(t, { services: { clock } });
  const a = api(tp);
  const potholes = await a.type(admin, { duplicate_policy: 'allow' });
  const lights = await a.type(admin, { duplicate_policy: 'allow', code: 'lights' });
  const made = [];
  for (const [i, extra] of ([
    [0, { title: 'Pothole in Baixa', latitude: 38.7101, longitude: -9.1366 }],
    [1, { title: 'Pothole in Alfama', latitude: 38.7115, longitude: -9.1300 }],
    [2, { title: 'Dark street', description: 'Streetlight broken', occurrence_type: lights.id, latitude: 41.1496, longitude: -8.6109 }],
  ] as const)) {
    offsetMs = i * 86_400_000;
    made.push((await a.submit('acme', report(potholes.id, extra))).body);
  }
  await a.transition(staff, made[1].id, { to_state: 'triaged' });

  const list = async (query: string, token = staff) => a.call('GET', `/api/backoffice/occurrences/${query}`, { token });
  const ids = async (query: string) => {
    const answer = await list(query);
    if (answer.status !== 200) throw new Error(JSON.stringify(answer.body));
    return answer.body.items.map((item: { id: number }) => item.id);
  };
  const all = await a.call('GET', '/api/backoffice/occurrences', { token: staff });
  t.equal(all.status, 200);
  t.equal(all.body.total, 3);
  t.same(all.body.items.map((item: { id: number }) => item.id), [made[2].id, made[1].id, made[0].id], 'newest first');
  t.equal(all.body.items[0].reporter_email, 'ana@example.org', 'staff see contact data');
  t.same(await ids('?state=triaged'), [made[1].id]);
  t.same(await ids(`?type=${lights.id}`), [made[2].id]);
  t.same(await ids(`?reference=${made[0].reference}`), [made[0].id]);
  t.same(await ids('?text=alfama'), [made[1].id], 'text: case-insensitive');
  t.same(await ids('?text=streetlight'), [made[2].id], 'text: the description too');
  t.same(await ids('?created_from=2026-03-02T00:00:00Z&created_to=2026-03-03T00:00:00Z'), [made[1].id]);
  t.same(await ids('?bbox=-9.2,38.7,-9.1,38.72&sort=created_at'), [made[0].id, made[1].id], 'bounding box (lon,lat,lon,lat)');
  t.same(await ids('?near=38.7101,-9.1366&radius=100'), [made[0].id], 'near: within 100 m');
  t.same(await ids('?near=38.7101,-9.1366&radius=1000&sort=title'), [made[1].id, made[0].id], 'near: within 1 km, by title');
  const page = await list('?sort=created_at&skip=1&limit=1');
  t.same([page.body.total, page.body.items.map((item: { id: number }) => item.id)], [3, [made[1].id]]);
  t.equal((await list('?sort=bogus')).status, 400);
  t.equal((await list('?bbox=1,2')).status, 400);

  const detail = await a.call('GET', `/api/backoffice/occurrences/${made[0].id}/`, { token: staff });
  t.equal(detail.status, 200);
  t.match(detail.body, { id: made[0].id, type: { id: potholes.id, name: 'Pothole' }, history: [{ to_state: 'submitted' }], messages: [], duplicates: [], attachments: [] });

  t.equal((await list('', member)).status, 403, 'a member without staff role');
  t.equal((await list('', member)).body.code, 'ROLE_REQUIRED');
  t.equal((await a.call('GET', '/api/backoffice/occurrences', { tenant: 'acme' })).status, 401);
  t.equal((await a.call('GET', `/api/backoffice/occurrences/${made[0].id}`, { token: member })).status, 403);
  t.equal((await a.call('GET', '/api/backoffice/occurrences/987654', { token: staff })).status, 404);

  const cli = await runCli(['occurrences', 'list', '--tenant', 'acme', '--state', 'triaged', '--json'], { platform: tp, env: { PLATFORM_MANIFEST: 'manifests/default.yaml' } });
  t.equal(cli.code, 0, cli.stderr);
  t.same((cli.json as { id: number }[]).map((row) => row.id), [made[1].id], 'the CLI lists them');
  t.notOk(cli.stdout.includes('ana@example.org'), 'without reporter data');

  const other = await tenantWithAdmin(tp, 'other');
  t.same((await a.call('GET', '/api/backoffice/occurrences', { token: other.token })).body.items, [], 'another tenant sees none');
  t.equal((await a.call('GET', `/api/backoffice/occurrences/${made[0].id}`, { token: other.token })).status, 404);
  t.equal((await a.transition(other.token, made[0].id, { to_state: 'triaged' })).status, 404);
  t.equal((await a.call('GET', '/api/backoffice/occurrences', { token: other.token, tenant: 'acme' })).body.code, 'TENANT_FORBIDDEN');
});

t.test('GraphQL: occurrences and occurrence for staff only, paged both ways', async (t) => {
  const { tp, admin, staff, member } = await occurrencesPlatform(t);
  const a = api(tp);
  const type = await a.type(admin, { duplicate_policy: 'allow' });
  const first = (await a.submit('acme', report(type.id, { title: 'First' }))).body;
  const second = (await a.submit('acme', report(type.id, { title: 'Second' }))).body;
  const third = (await a.submit('acme', report(type.id, { title: 'Third' }))).body;
  const gql = (query: string, token?: string) => tp.request({ method: 'POST', url: '/graphql', token, tenant: 'acme', payload: { query } });
  const titles = (body: { data: { occurrences: { edges: { node: { title: string } }[] } } }) => body.data.occurrences.edges.map((e) => e.node.title);

  const page = await gql('{ occurrences(first: 1) { edges { node { id reference title reporterEmail state } } pageInfo { hasNextPage endCursor } totalCount } }', staff);
  t.notOk(page.body.errors, JSON.stringify(page.body.errors));
  t.same(titles(page.body), ['Third']);
  t.equal(page.body.data.occurrences.edges[0].node.reporterEmail, 'ana@example.org');
  t.equal(page.body.data.occurrences.pageInfo.hasNextPage, true);
  t.equal(page.body.data.occurrences.totalCount, 3);
  const next = await gql(`{ occurrences(first: 5, after: "${page.body.data.occurrences.pageInfo.endCursor}") { edges { node { id } } pageInfo { hasNextPage } } }`, staff);
  t.same(next.body.data.occurrences.edges.map((e: { node: { id: string } }) => e.node.id), [String(second.id), String(first.id)], 'ids are strings');

  const end = await gql('{ occurrences(last: 2) { edges { node { title } } pageInfo { hasPreviousPage hasNextPage startCursor } totalCount } }', staff);
  t.same(titles(end.body), ['Second', 'First'], 'last: the end of the list, in list order');
  t.match(end.body.data.occurrences.pageInfo, { hasPreviousPage: true, hasNextPage: false });
  t.equal(end.body.data.occurrences.totalCount, 3);
  const before = await gql(`{ occurrences(last: 5, before: "${end.body.data.occurrences.pageInfo.startCursor}") { edges { node { title } } pageInfo { hasPreviousPage } } }`, staff);
  t.same(titles(before.body), ['Third']);
  t.equal(before.body.data.occurrences.pageInfo.hasPreviousPage, false);

  const filtered = await gql('{ occurrences(filter: {text: "first", state: "submitted"}) { edges { node { title } } totalCount } }', admin);
  t.same(titles(filtered.body), ['First']);
  t.equal(filtered.body.data.occurrences.totalCount, 1, 'totalCount counts the filter');
  const typed = await gql(`{ occurrences(filter: {occurrenceTypeId: "${type.id}", createdAfter: "2000-01-01T00:00:00Z", createdBefore: "2100-01-01T00:00:00Z"}) { totalCount } }`, staff);
  t.equal(typed.body.data.occurrences.totalCount, 3);
  const badType = await gql('{ occurrences(filter: {occurrenceTypeId: "x"}) { totalCount } }', staff);
  t.match(badType.body.errors, [{ message: 'occurrenceTypeId is not a valid occurrence type id', extensions: { code: 'BAD_USER_INPUT' } }]);

  const one = await gql(`{ occurrence(id: "${second.id}") { reference occurrenceTypeId occurrenceType { id name code } latitude duplicateOf { id } } }`, staff);
  t.same(one.body.data.occurrence, {
    reference: second.reference, occurrenceTypeId: String(type.id), occurrenceType: { id: String(type.id), name: 'Pothole', code: type.code }, latitude: 38.7101, duplicateOf: null,
  });
  t.equal((await gql('{ occurrence(id: "nope") { id } }', staff)).body.data.occurrence, null);

  t.equal((await gql('{ occurrences { edges { node { id } } } }', member)).body.errors[0].extensions.code, 'ROLE_REQUIRED');
  t.equal((await gql(`{ occurrence(id: "${first.id}") { id } }`)).body.errors[0].extensions.code, 'UNAUTHENTICATED');
});
