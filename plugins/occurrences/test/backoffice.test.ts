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

t.test('GraphQL: occurrences and occurrence for staff only', async (t) => {
  const { tp, admin, staff, member } = await occurrencesPlatform(t);
  const a = api(tp);
  const type = await a.type(admin, { duplicate_policy: 'allow' });
  const first = (await a.submit('acme', report(type.id, { title: 'First' }))).body;
  const second = (await a.submit('acme', report(type.id, { title: 'Second' }))).body;
  const gql = (query: string, token?: string) => tp.request({ method: 'POST', url: '/graphql', token, tenant: 'acme', payload: { query } });

  const page = await gql('{ occurrences(first: 1) { edges { node { id reference title reporterEmail state } } pageInfo { hasNextPage endCursor } } }', staff);
  t.notOk(page.body.errors, JSON.stringify(page.body.errors));
  t.same(page.body.data.occurrences.edges.map((e: { node: { title: string } }) => e.node.title), ['Second']);
  t.equal(page.body.data.occurrences.edges[0].node.reporterEmail, 'ana@example.org');
  t.equal(page.body.data.occurrences.pageInfo.hasNextPage, true);
  const next = await gql(`{ occurrences(first: 5, after: "${page.body.data.occurrences.pageInfo.endCursor}") { edges { node { id } } pageInfo { hasNextPage } } }`, staff);
  t.same(next.body.data.occurrences.edges.map((e: { node: { id: string } }) => Number(e.node.id)), [first.id]);
  const filtered = await gql('{ occurrences(filter: {text: "first", state: "submitted"}) { edges { node { title } } } }', admin);
  t.same(filtered.body.data.occurrences.edges.map((e: { node: { title: string } }) => e.node.title), ['First']);
  const one = await gql(`{ occurrence(id: "${second.id}") { reference occurrenceType latitude } }`, staff);
  t.same(one.body.data.occurrence, { reference: second.reference, occurrenceType: type.id, latitude: 38.7101 });
  t.equal((await gql('{ occurrence(id: "nope") { id } }', staff)).body.data.occurrence, null);

  t.equal((await gql('{ occurrences { edges { node { id } } } }', member)).body.errors[0].extensions.code, 'ROLE_REQUIRED');
  t.equal((await gql(`{ occurrence(id: "${first.id}") { id } }`)).body.errors[0].extensions.code, 'UNAUTHENTICATED');
});
