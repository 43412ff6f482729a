// Agents CRUD (definition.* events), clients' default agents, sessions and
// messages (embed-chat 2.7 and 4), feedback, and isolation between owners,
// clients and tenants.
import t from 'tap';
import { textChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { tenantWithAdmin } from 'agent-platform/sdk/testing';
import { ask, chatFixture, eventsOf, member, messagesOf, newSession } from './helpers.ts';

const UTC_NO_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/;

t.test('agent definitions: CRUD, validation, events, a client\'s default agent', async (t) => {
  const { tp, llm, token, clientId } = await chatFixture(t);
  const created = await tp.request({
    method: 'POST', url: '/api/admin/agents', token,
    payload: { name: 'helper', instructions: 'Answer in French.', model: { name: 'scripted-large', temperature: 0.2 }, functions: ['ask_user'], max_iterations: 3, token_budget: 5000 },
  });
  t.equal(created.status, 201);
  t.match(created.body, { name: 'helper', version: 1, functions: ['ask_user'], max_iterations: 3, emit_iteration_events: false });
  t.equal((await tp.request({ method: 'POST', url: '/api/admin/agents', token, payload: { name: 'helper' } })).status, 409);
  const unknownFn = await tp.request({ method: 'POST', url: '/api/admin/agents', token, payload: { name: 'x', functions: ['nope_fn'] } });
  t.same([unknownFn.status, unknownFn.body.code], [400, 'UNKNOWN_FUNCTION']);
  t.equal((await tp.request({ method: 'POST', url: '/api/admin/agents', token, payload: { name: 'y', colour: 'red' } })).status, 400);
  t.equal((await tp.request({ method: 'POST', url: '/api/admin/agents', token, payload: { name: 'Bad Name' } })).status, 400);

  const patched = await tp.request({ method: 'PATCH', url: '/api/admin/agents/helper', token, payload: { instructions: 'Answer in German.', max_iterations: 3 } });
  t.same([patched.status, patched.body.version, patched.body.instructions], [200, 2, 'Answer in German.']);
  const listed = await tp.request({ url: '/api/admin/agents', token });
  t.same(listed.body.items.map((a: any) => a.name), ['helper']);
  t.equal((await tp.request({ url: '/api/admin/agents/nope', token })).status, 404);

  const unset = await tp.request({ url: `/api/admin/clients/${clientId}/agent`, token });
  t.same([unset.body.agent_name, unset.body.builtin], [null, true]);
  const set = await tp.request({ method: 'PUT', url: `/api/admin/clients/${clientId}/agent`, token, payload: { agent_name: 'helper' } });
  t.same([set.status, set.body.agent_name], [200, 'helper']);
  // The client's default agent answers (its model settings override LLM_MODEL).
  const session = await newSession(tp, token);
  llm!.enqueue({ chunks: textChunks('Hallo.') });
  await ask(tp, token, session, 'Hi');
  t.equal(llm!.requests[0].body.model, 'scripted-large');
  t.equal(llm!.requests[0].body.temperature, 0.2);
  t.match(llm!.requests[0].body.messages[0].content, /German/);

  const inUse = await tp.request({ method: 'DELETE', url: '/api/admin/agents/helper', token });
  t.same([inUse.status, inUse.body.code], [409, 'AGENT_IN_USE']);
  t.equal((await tp.request({ method: 'DELETE', url: `/api/admin/clients/${clientId}/agent`, token })).status, 204);
  t.equal((await tp.request({ method: 'DELETE', url: '/api/admin/agents/helper', token })).status, 204);
  t.equal((await tp.request({ url: '/api/admin/agents/helper', token })).status, 404);

  const definitions = (await eventsOf(tp, token)).filter((e) => e.type.startsWith('definition.')).reverse();
  t.same(definitions.map((e) => [e.type, e.data.definition_type, e.data.name]),
    [['definition.created', 'agent', 'helper'], ['definition.updated', 'agent', 'helper'], ['definition.deleted', 'agent', 'helper']]);
  t.same(definitions[1].data.changed_fields, ['instructions']);

  const memberToken = await member(tp, 'acme', 'bob');
  t.equal((await tp.request({ method: 'POST', url: '/api/admin/agents', token: memberToken, payload: { name: 'z' } })).status, 403, 'writes need the admin role');
});

t.test('sessions: create, list (active, most recent first), rename, messages, soft delete', async (t) => {
  const { tp, llm, token, clientId, clientKey } = await chatFixture(t);
  const a = await tp.request({ method: 'POST', url: '/api/sessions', token, payload: { title: 'First' } });
  t.equal(a.status, 201);
  t.match(a.body, { title: 'First', is_active: true, client_id: clientId });
  t.match(a.body.created_at, UTC_NO_ZONE, 'UTC without a zone suffix');
  t.match(a.body.last_active, UTC_NO_ZONE);
  const b = await newSession(tp, token, `?selected_client=${clientKey}`);
  const c = await newSession(tp, token, `?selected_client=${clientId}`);
  llm!.enqueue({ chunks: textChunks('Answer.') });
  await ask(tp, token, a.body.id, 'What is the capital of France?');
  const listed = await tp.request({ url: '/api/sessions', token });
  t.equal(listed.status, 200);
  t.same(listed.body.items.map((s: any) => s.id), [a.body.id, c, b], 'most recently active first');
  t.equal(listed.body.items[0].title, 'First', 'a title is kept');
  const titled = listed.body.items.find((s: any) => s.id === b);
  t.equal(titled.title, '');

  const renamed = await tp.request({ method: 'PATCH', url: `/api/sessions/${b}`, token, payload: { title: 'Renamed' } });
  t.same([renamed.status, renamed.body.title], [200, 'Renamed']);
  t.equal((await tp.request({ method: 'PATCH', url: `/api/sessions/${b}`, token, payload: { title: 'x', other: 1 } })).status, 400);

  const messages = await messagesOf(tp, token, a.body.id);
  t.same(messages.map((m) => [m.role, m.content]), [['user', 'What is the capital of France?'], ['assistant', 'Answer.']]);
  for (const m of messages) t.type(m.id, 'number');
  const paged = await tp.request({ url: `/api/sessions/${a.body.id}/messages?limit=1`, token });
  t.same([paged.body.items.length, paged.body.next_after], [1, messages[0].id]);

  t.equal((await tp.request({ method: 'DELETE', url: `/api/sessions/${c}`, token })).status, 204);
  const after = await tp.request({ url: '/api/sessions', token });
  t.notOk(after.body.items.some((s: any) => s.id === c), 'a deleted session is no longer listed');
  t.equal((await tp.request({ url: `/api/sessions/${c}/messages`, token })).status, 404);
  t.equal((await ask(tp, token, c, 'hello?')).status, 404);
  const ended = await eventsOf(tp, token, 'chat.session.ended');
  t.same(ended.map((e) => e.data.session_id), [c]);
  const created = await eventsOf(tp, token, 'chat.session.created');
  t.equal(created.length, 3);

  t.equal((await tp.request({ url: '/api/sessions?selected_client=ck_nope', token })).status, 404);
  t.equal((await tp.request({ url: '/api/sessions/not-a-uuid/messages', token })).status, 400);
});

t.test('feedback on an assistant message', async (t) => {
  const { tp, llm, token, tenant } = await chatFixture(t);
  const session = await newSession(tp, token);
  llm!.enqueue({ chunks: textChunks('Rated answer.') });
  const answer = await ask(tp, token, session, 'rate me');
  const messageId = answer.frames.find((f) => f.type === 'message')!.message_id;
  const first = await tp.request({ method: 'POST', url: `/api/chat/${session}/feedback`, token, payload: { message_id: messageId, rating: 1, comment: 'good' } });
  t.equal(first.status, 201);
  t.match(first.body.feedback, { message_id: messageId, rating: 1, comment: 'good' });
  const second = await tp.request({ method: 'POST', url: `/api/chat/${session}/feedback`, token, payload: { message_id: messageId, rating: -1, comment: 'changed my mind' } });
  t.same([second.status, second.body.feedback.rating], [200, -1]);
  const messages = await messagesOf(tp, token, session);
  t.same((messages.at(-1) as any).feedback, { rating: -1, comment: 'changed my mind' });
  const userMessage = messages[0].id;
  t.equal((await tp.request({ method: 'POST', url: `/api/chat/${session}/feedback`, token, payload: { message_id: userMessage, rating: 1 } })).status, 404);
  t.equal((await tp.request({ method: 'POST', url: `/api/chat/${session}/feedback`, token, payload: { message_id: messageId } })).status, 400);
  t.equal((await tp.request({ method: 'POST', url: `/api/chat/${session}/feedback`, token, payload: { message_id: messageId, rating: 9 } })).status, 400);
  const other = await member(tp, tenant, 'carol');
  t.equal((await tp.request({ method: 'POST', url: `/api/chat/${session}/feedback`, token: other, payload: { message_id: messageId, rating: 1 } })).status, 403);
});

t.test('sessions are isolated between owners, clients and tenants', async (t) => {
  const { tp, llm, token, tenant, clientKey } = await chatFixture(t);
  const mine = await newSession(tp, token);
  llm!.enqueue({ chunks: textChunks('private') });
  await ask(tp, token, mine, 'secret question');

  const other = await member(tp, tenant, 'dave');
  t.same((await tp.request({ url: '/api/sessions', token: other })).body.items, [], 'another user sees none of mine');
  for (const [method, url, payload] of [
    ['GET', `/api/sessions/${mine}/messages`], ['PATCH', `/api/sessions/${mine}`, { title: 'x' }], ['DELETE', `/api/sessions/${mine}`],
    ['POST', `/api/chat/${mine}`, { content: 'hi' }], ['POST', `/api/chat/${mine}/cancel`],
  ] as const) {
    t.equal((await tp.request({ method, url, token: other, payload })).status, 403, `${method} ${url} by another user`);
  }

  // Another client of the same tenant: the same user sees a separate list.
  const second = await tp.request({ method: 'POST', url: '/api/admin/clients', token, payload: { name: 'mobile', client_key: 'ck_acme_mobile' } });
  t.same((await tp.request({ url: '/api/sessions?selected_client=ck_acme_mobile', token })).body.items, []);
  t.equal((await tp.request({ url: `/api/sessions/${mine}/messages?selected_client=${second.body.id}`, token })).status, 403);
  t.equal((await tp.request({ url: `/api/sessions?selected_client=${clientKey}`, token })).body.items.length, 1);

  // Another tenant: not even found.
  const globex = await tenantWithAdmin(tp, 'globex');
  t.same((await tp.request({ url: '/api/sessions', token: globex.token })).body.items, []);
  t.equal((await tp.request({ url: `/api/sessions/${mine}/messages`, token: globex.token })).status, 404);
  t.equal((await tp.request({ url: `/api/sessions?selected_client=${clientKey}`, token: globex.token })).status, 404, 'another tenant\'s client key is unknown');
  // An API key acts for its own client, as its own owner.
  const key = await tp.request({ method: 'POST', url: '/api/admin/api-keys', token, payload: { name: 'kiosk', client_id: second.body.id } });
  t.equal(key.status, 201);
  const visitor = { 'x-visitor-id': 'visitor-0001' };
  const byKey = await tp.request({ method: 'POST', url: '/api/sessions', apiKey: key.body.key, headers: visitor, payload: {} });
  t.same([byKey.status, byKey.body.client_id], [201, second.body.id]);
  t.same((await tp.request({ url: '/api/sessions', apiKey: key.body.key, headers: visitor })).body.items.map((s: any) => s.id), [byKey.body.id]);
  t.equal((await tp.request({ url: `/api/sessions/${mine}/messages`, apiKey: key.body.key, headers: visitor })).status, 403);
  t.equal((await tp.request({ url: `/api/sessions?selected_client=${clientKey}`, apiKey: key.body.key, headers: visitor })).status, 403, 'not for another client');

  const rows = await tp.platform.core.withTenant('globex', (trx) => trx.selectFrom('chat_messages').select('id').execute());
  t.same(rows, [], 'row-level security hides the other tenant\'s messages');
});
