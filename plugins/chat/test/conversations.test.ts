// Operators read the tenant's conversations: REST under /api/admin/chat/…
// and GraphQL's tenantChatSession(s), tenant admins only (a member keeps
// reading its own sessions; an API key and another tenant reach nothing), the
// filters (owner, dates, feedback, rating), each message with its feedback;
// and rating an answer emits chat.feedback.given once per rating, without the
// comment.
import t from 'tap';
import { tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';
import { textChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { ask, chatFixture, eventsOf, member, newSession } from './helpers.ts';

async function gql(tp: TestPlatform, query: string, token: string) {
  const response = await tp.request({ method: 'POST', url: '/graphql', payload: { query }, token });
  return response.body as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };
}

t.test('tenant admins read every conversation with its feedback; members, API keys and other tenants do not', async (t) => {
  const { tp, llm, token: admin, tenant, clientId } = await chatFixture(t);
  const bob = await member(tp, tenant, 'bob');
  const carol = await member(tp, tenant, 'carol');

  const bobs = await newSession(tp, bob);
  llm!.enqueue({ chunks: textChunks('Bob\'s answer.') });
  const answer = await ask(tp, bob, bobs, 'A question from Bob');
  const messageId = answer.frames.find((f) => f.type === 'message')!.message_id;
  const carols = await newSession(tp, carol);
  llm!.enqueue({ chunks: textChunks('Carol\'s answer.') });
  await ask(tp, carol, carols, 'A question from Carol');
  const admins = await newSession(tp, admin);

  // Bob rates the answer twice (the second replaces the first); a refused rating emits nothing.
  const rated = await tp.request({ method: 'POST', url: `/api/chat/${bobs}/feedback`, token: bob, payload: { message_id: messageId, rating: 1, comment: 'call me at 555-0100' } });
  t.equal(rated.status, 201);
  t.equal((await tp.request({ method: 'POST', url: `/api/chat/${bobs}/feedback`, token: carol, payload: { message_id: messageId, rating: 1 } })).status, 403);
  t.equal((await tp.request({ method: 'POST', url: `/api/chat/${bobs}/feedback`, token: bob, payload: { message_id: messageId - 1, rating: 1 } })).status, 404);
  const replaced = await tp.request({ method: 'POST', url: `/api/chat/${bobs}/feedback`, token: bob, payload: { message_id: messageId, rating: -1, comment: 'wrong' } });
  t.equal(replaced.status, 200);
  const given = (await eventsOf(tp, admin, 'chat.feedback.given')).reverse();
  t.equal(given.length, 2, 'one event per rating given, none for a refused one');
  t.same(given.map((e) => e.data), [
    { session_id: bobs, message_id: messageId, client_id: clientId, rating: 1, created: true, has_comment: true },
    { session_id: bobs, message_id: messageId, client_id: clientId, rating: -1, created: false, has_comment: true },
  ]);
  t.notMatch(JSON.stringify(given), /555-0100|wrong/, 'the comment never travels with the event');

  // A member reads only its own sessions, and none of the admin routes.
  t.same((await tp.request({ url: '/api/sessions', token: bob })).body.items.map((s: any) => s.id), [bobs]);
  for (const url of ['/api/admin/chat/sessions', `/api/admin/chat/sessions/${carols}`, `/api/admin/chat/sessions/${carols}/messages`]) {
    t.equal((await tp.request({ url, token: bob })).status, 403, `a member: ${url}`);
  }

  // The admin lists every session of the tenant, whoever owns it.
  const all = await tp.request({ url: '/api/admin/chat/sessions', token: admin });
  t.equal(all.status, 200, JSON.stringify(all.body));
  t.equal(all.body.total, 3);
  t.same(new Set(all.body.items.map((s: any) => s.id)), new Set([bobs, carols, admins]));
  const bobsListed = all.body.items.find((s: any) => s.id === bobs);
  t.match(bobsListed, { owner_sub: 'bob', owner_key: 'user:platform:bob', message_count: 2, feedback_count: 1, is_active: true });

  const ids = async (query: string) => {
    const listed = await tp.request({ url: `/api/admin/chat/sessions?${query}`, token: admin });
    t.equal(listed.status, 200, `${query}: ${JSON.stringify(listed.body)}`);
    return new Set(listed.body.items.map((s: any) => s.id));
  };
  t.same(await ids('user=bob'), new Set([bobs]), 'by owner');
  t.same(await ids('owner_key=user:platform:carol'), new Set([carols]), 'by owner key');
  t.same(await ids('has_feedback=true'), new Set([bobs]), 'with feedback');
  t.same(await ids('has_feedback=false'), new Set([carols, admins]), 'without feedback');
  t.same(await ids('rating=-1'), new Set([bobs]), 'by rating');
  t.same(await ids('rating=1'), new Set(), 'the replaced rating is gone');
  t.same(await ids('from=2000-01-01&to=2999-01-01'), new Set([bobs, carols, admins]), 'in a date range');
  t.same(await ids('from=2999-01-01T00:00:00'), new Set(), 'no activity after a future time');
  t.same(await ids('to=2000-01-01T00:00:00Z'), new Set(), 'none started before a past time');
  t.same(await ids('user=bob&has_feedback=false'), new Set(), 'filters combine');
  const paged = await tp.request({ url: '/api/admin/chat/sessions?limit=2&skip=2', token: admin });
  t.same([paged.body.items.length, paged.body.total], [1, 3]);

  const one = await tp.request({ url: `/api/admin/chat/sessions/${bobs}`, token: admin });
  t.same([one.status, one.body.owner_sub], [200, 'bob']);
  const messages = await tp.request({ url: `/api/admin/chat/sessions/${bobs}/messages`, token: admin });
  t.equal(messages.status, 200);
  t.same(messages.body.items.map((m: any) => [m.role, m.content]), [['user', 'A question from Bob'], ['assistant', 'Bob\'s answer.']]);
  t.equal(messages.body.items[0].feedback, null);
  t.match(messages.body.items[1].feedback, { rating: -1, comment: 'wrong' });
  t.match(messages.body.items[1].feedback.updated_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);

  // Bad input is a 400 and changes nothing.
  for (const query of ['rating=9', 'from=yesterday', 'has_feedback=maybe', 'user=', 'limit=0', 'colour=red']) {
    t.equal((await tp.request({ url: `/api/admin/chat/sessions?${query}`, token: admin })).status, 400, query);
  }
  t.equal((await tp.request({ url: '/api/admin/chat/sessions/not-a-uuid', token: admin })).status, 400);
  t.equal((await tp.request({ url: '/api/admin/chat/sessions/3a7e7c4e-1111-4d2b-9c63-1f0f2b8e9a01/messages', token: admin })).status, 404);

  // A deleted session is gone for the admin too.
  t.equal((await tp.request({ method: 'DELETE', url: `/api/sessions/${admins}`, token: admin })).status, 204);
  t.same(await ids(''), new Set([bobs, carols]));
  t.equal((await tp.request({ url: `/api/admin/chat/sessions/${admins}`, token: admin })).status, 404);

  // An API key (a client's end-user credential) reaches no admin read, as on every admin route.
  const key = await tp.request({ method: 'POST', url: '/api/admin/api-keys', token: admin, payload: { name: 'kiosk', client_id: clientId } });
  t.equal(key.status, 201, JSON.stringify(key.body));
  const byKey = await tp.request({ url: '/api/admin/chat/sessions', apiKey: key.body.key, headers: { 'x-visitor-id': 'visitor-0001' } });
  t.equal(byKey.status, (await tp.request({ url: '/api/admin/agents', apiKey: key.body.key })).status, 'as the other admin reads');
  t.equal(byKey.status, 401);

  // Another tenant's admin sees nothing of these.
  const globex = await tenantWithAdmin(tp, 'globex');
  const theirs = await tp.request({ url: '/api/admin/chat/sessions', token: globex.token });
  t.same([theirs.status, theirs.body.items, theirs.body.total], [200, [], 0]);
  t.equal((await tp.request({ url: `/api/admin/chat/sessions/${bobs}`, token: globex.token })).status, 404);
  t.equal((await tp.request({ url: `/api/admin/chat/sessions/${bobs}/messages`, token: globex.token })).status, 404);

  // GraphQL: the same reads, the same roles.
  const listed = await gql(tp, `{ tenantChatSessions(filter: { hasFeedback: true }) { totalCount edges { node {
    id ownerSub ownerKey messages { edges { node { role content feedback { rating comment updatedAt } } } } } } } }`, admin);
  t.same(listed.errors ?? [], []);
  t.equal(listed.data.tenantChatSessions.totalCount, 1);
  const node = listed.data.tenantChatSessions.edges[0].node;
  t.match(node, { id: bobs, ownerSub: 'bob', ownerKey: 'user:platform:bob' });
  t.same(node.messages.edges.map((e: any) => e.node.feedback?.rating ?? null), [null, -1]);
  const byOwner = await gql(tp, '{ tenantChatSessions(filter: { ownerSub: "carol" }) { totalCount edges { node { id } } } }', admin);
  t.same(byOwner.data.tenantChatSessions.edges.map((e: any) => e.node.id), [carols]);
  const paging = await gql(tp, '{ tenantChatSessions(first: 1) { totalCount pageInfo { hasNextPage endCursor } edges { node { id } } } }', admin);
  const next = await gql(tp, `{ tenantChatSessions(first: 1, after: "${paging.data.tenantChatSessions.pageInfo.endCursor}") { edges { node { id } } } }`, admin);
  t.same(new Set([paging.data.tenantChatSessions.edges[0].node.id, next.data.tenantChatSessions.edges[0].node.id]), new Set([bobs, carols]), 'pages in order');
  t.equal((await gql(tp, `{ tenantChatSession(id: "${carols}") { ownerSub } }`, admin)).data.tenantChatSession.ownerSub, 'carol');
  const byMember = await gql(tp, '{ tenantChatSessions { totalCount } }', bob);
  t.equal(byMember.errors?.[0].extensions?.code, 'ROLE_REQUIRED');
  // The owner reads the feedback on its own answer, as REST's messages carry it; not who owns the session (admins only).
  const own = await gql(tp, `{ chatSession(id: "${bobs}") { messages(last: 1) { edges { node { feedback { rating comment } } } } } }`, bob);
  t.same(own.data.chatSession.messages.edges[0].node.feedback, { rating: -1, comment: 'wrong' });
  t.equal((await gql(tp, `{ chatSession(id: "${bobs}") { ownerSub } }`, bob)).errors?.[0].extensions?.code, 'ROLE_REQUIRED');
  t.equal((await gql(tp, `{ tenantChatSession(id: "${bobs}") { id } }`, globex.token)).data.tenantChatSession, null, 'not another tenant\'s');
  t.equal((await gql(tp, '{ tenantChatSessions(filter: { rating: 9 }) { totalCount } }', admin)).errors?.[0].extensions?.code, 'BAD_USER_INPUT');
});
