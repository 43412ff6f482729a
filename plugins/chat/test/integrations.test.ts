// Chat with the integrations plugin: chat's exposed sessionOwner (who owns a
// session, null when the tenant has none such) is what integrations uses for
// session-scoped credentials, and an agent calling an imported function in a
// chat session sends the credential its owner stored for that session.
import t from 'tap';
import { petstore } from '../../../test/fixtures/integrations/specs.ts';
import { textChunks, toolCallChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { tenantWithAdmin } from 'agent-platform/sdk/testing';
import { imported, startApiServer } from '../../integrations/test/helpers.ts';
import { ask, chatFixture, member, newSession, textOf } from './helpers.ts';

const MANIFEST = 'test/fixtures/manifests/chat-integrations.yaml';

t.test('api.sessionOwner: the owner of a session, null when the tenant has no such session', async (t) => {
  const { tp, token, tenant } = await chatFixture(t, { manifest: MANIFEST });
  const api = tp.platform.server.plugins.chat.api;
  const mine = await newSession(tp, token);
  t.same(await api.sessionOwner(tenant, mine), { sub: 'acme-admin', owner_key: 'user:platform:acme-admin' });

  const bobToken = await member(tp, tenant, 'bob');
  const bobs = await newSession(tp, bobToken);
  t.same(await api.sessionOwner(tenant, bobs), { sub: 'bob', owner_key: 'user:platform:bob' });

  t.equal(await api.sessionOwner(tenant, crypto.randomUUID()), null, 'an unknown id');
  t.equal(await api.sessionOwner(tenant, 's-1'), null, 'not a session id at all');
  await tenantWithAdmin(tp, 'globex');
  t.equal(await api.sessionOwner('globex', mine), null, 'another tenant does not see it');
  t.equal(await api.sessionOwner('Not A Tenant!', mine), null, 'an invalid tenant id');
  t.equal((await tp.request({ method: 'DELETE', url: `/api/sessions/${bobs}`, token: bobToken })).status, 204);
  t.equal(await api.sessionOwner(tenant, bobs), null, 'a deleted session');
});

t.test('session credentials: only the chat session\'s owner stores them, and the agent\'s imported call uses them', async (t) => {
  const { tp, llm, token, tenant } = await chatFixture(t, { manifest: MANIFEST });
  const target = await startApiServer(t);
  await imported(tp, token, { spec: petstore(target.url), name: 'pets', prefix: 'pet', auth_value: 'default-secret' });
  const agent = await tp.request({ method: 'POST', url: '/api/admin/agents', token, payload: { name: 'petbot', functions: ['pet_list_pets'] } });
  t.equal(agent.status, 201, JSON.stringify(agent.body));
  const session = (await tp.request({ method: 'POST', url: '/api/sessions', token, payload: { agent_name: 'petbot' } })).body.id;

  const url = `/api/sessions/${session}/credentials`;
  const stored = await tp.request({ method: 'POST', url, token, payload: { service_name: 'pets', value: 'session-secret' } });
  t.equal(stored.status, 201, JSON.stringify(stored.body));
  const other = await member(tp, tenant, 'mallory');
  t.equal((await tp.request({ method: 'POST', url, token: other, payload: { service_name: 'pets', value: 'theirs' } })).status, 403, 'not the owner');
  t.equal((await tp.request({ url, token: other })).status, 403);
  const unknown = await tp.request({ method: 'POST', url: `/api/sessions/${crypto.randomUUID()}/credentials`, token, payload: { service_name: 'pets', value: 'x' } });
  t.equal(unknown.status, 404, 'no such chat session');

  llm!.enqueue({ chunks: toolCallChunks('c1', 'pet_list_pets', { limit: 2 }) }, { chunks: textChunks('Two pets.') });
  const answer = await ask(tp, token, session, 'Which pets are there?');
  t.equal(answer.frames.at(-1)!.status, 'completed', JSON.stringify(answer.frames.filter((f) => f.type !== 'text')));
  t.same(answer.frames.filter((f) => f.type === 'tool_status').map((f) => [f.status, f.name]), [['running', 'pet_list_pets'], ['completed', 'pet_list_pets']]);
  t.equal(textOf(answer.frames), 'Two pets.');
  const call = target.calls().at(-1)!;
  t.same([call.method, call.path, call.query.get('limit')], ['GET', '/pets', '2']);
  t.equal(call.headers['x-api-key'], 'session-secret', 'the chat session\'s credential, stored by its owner');
  const toolResult = JSON.parse(llm!.requests[1].body.messages.at(-1).content);
  t.equal(toolResult.credential, 'session');
  t.notMatch(JSON.stringify(answer.frames), /session-secret/, 'no secret in a frame');
});
