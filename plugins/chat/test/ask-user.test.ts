// ask_user: suspend with awaiting_input,
// answered by the owner only, refused without the key, timed out (the clock
// driven by moving the keyed job's run_at), and a restart while suspended.
import t from 'tap';
import { textChunks, toolCallChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { startTestPlatform } from 'agent-platform/sdk/testing';
import { ask, chatFixture, eventsOf, member, messagesOf, newSession, parseSse, textOf, until, MANIFEST } from './helpers.ts';
import { rawClient } from '../../events/test/helpers.ts';

const QUESTION = { question: 'Which year do you mean?', options: ['2024', '2025'] };

t.test('ask_user suspends the turn; the owner\'s answer resumes it; others get 403', async (t) => {
  const { tp, llm, token, tenant } = await chatFixture(t);
  const session = await newSession(tp, token);
  llm!.enqueue({ chunks: [...textChunks('Let me ask. '), ...toolCallChunks('call_q', 'ask_user', QUESTION)] }, { chunks: textChunks('Sales in 2025 were fine.') });
  const first = await ask(tp, token, session, 'How were sales?', ['ask_user']);
  const waiting = first.frames.find((f) => f.type === 'tool_status')!;
  t.same({ status: waiting.status, name: waiting.name, tool_call_id: waiting.tool_call_id, question: waiting.question, options: waiting.options },
    { status: 'awaiting_input', name: 'ask_user', tool_call_id: 'call_q', question: QUESTION.question, options: QUESTION.options });
  t.same(first.frames.at(-1), { seq: first.frames.length, type: 'done', status: 'awaiting_input' });
  t.same((await messagesOf(tp, token, session)).map((m) => m.role), ['user'], 'no reply stored while suspended');

  const busy = await ask(tp, token, session, 'another question', ['ask_user']);
  t.equal(busy.status, 409);
  t.equal(busy.body.code, 'AWAITING_INPUT');

  const other = await member(tp, tenant, 'mallory');
  const refused = await tp.request({ method: 'POST', url: `/api/chat/${session}/human-input`, token: other, payload: { tool_call_id: 'call_q', answer: '2024' } });
  t.equal(refused.status, 403, 'a non-owner cannot answer');
  const wrongId = await tp.request({ method: 'POST', url: `/api/chat/${session}/human-input`, token, payload: { tool_call_id: 'nope', answer: '2025' } });
  t.equal(wrongId.status, 409);
  const bad = await tp.request({ method: 'POST', url: `/api/chat/${session}/human-input`, token, payload: { tool_call_id: 'call_q', answer: '2025', extra: 1 } });
  t.equal(bad.status, 400);
  t.equal(llm!.requests.length, 1);

  const answered = await tp.request({ method: 'POST', url: `/api/chat/${session}/human-input`, token, payload: { tool_call_id: 'call_q', answer: '2025' } });
  t.equal(answered.status, 200);
  const frames = parseSse(String(answered.body));
  t.equal(frames[0].seq, first.frames.at(-1)!.seq + 1, 'seq continues after the suspension');
  t.same([frames[0].type, frames[0].resumed], ['turn', true]);
  t.same([frames[1].type, frames[1].status], ['tool_status', 'answered']);
  t.equal(textOf(frames), 'Sales in 2025 were fine.');
  t.equal(frames.at(-1)!.status, 'completed');
  t.same(llm!.requests[1].body.messages.at(-1), { role: 'tool', tool_call_id: 'call_q', content: JSON.stringify({ status: 'answered', answer: '2025' }) });
  const messages = await messagesOf(tp, token, session);
  t.equal(messages.at(-1)!.content, 'Let me ask. Sales in 2025 were fine.');
  t.same(messages.at(-1)!.tool_metadata.tool_calls, [{ id: 'call_q', name: 'ask_user', status: 'answered' }]);
  const completed = await eventsOf(tp, token, 'chat.tool.completed');
  t.equal(completed[0].data.outcome, 'answered');

  const again = await tp.request({ method: 'POST', url: `/api/chat/${session}/human-input`, token, payload: { tool_call_id: 'call_q', answer: '2025' } });
  t.equal(again.status, 409, 'a question is answered once');
});

t.test('without the ask_user key the agent gets an immediate fallback', async (t) => {
  const { tp, llm, token } = await chatFixture(t);
  const session = await newSession(tp, token);
  llm!.enqueue({ chunks: toolCallChunks('call_q', 'ask_user', QUESTION) }, { chunks: textChunks('Assuming 2025.') });
  const answer = await ask(tp, token, session, 'How were sales?');
  t.notOk(answer.frames.some((f) => f.type === 'tool_status' && f.status === 'awaiting_input'));
  t.equal(answer.frames.at(-1)!.status, 'completed');
  const result = JSON.parse(llm!.requests[1].body.messages.at(-1).content);
  t.equal(result.status, 'unavailable');
  t.equal(result.answer, null);
  t.match(llm!.requests[0].body.messages[0].content, /cannot be asked/);
  const completed = await eventsOf(tp, token, 'chat.tool.completed');
  t.same(completed.map((e) => [e.data.name, e.data.outcome]), [['ask_user', 'unavailable']]);
});

t.test('after the timeout the agent gets a structured timed-out result', async (t) => {
  const { tp, llm, token } = await chatFixture(t);
  const db = await rawClient(t, tp.databaseUrl);
  const session = await newSession(tp, token);
  llm!.enqueue({ chunks: toolCallChunks('call_q', 'ask_user', QUESTION) }, { chunks: textChunks('No answer; assuming 2025.') });
  const first = await ask(tp, token, session, 'How were sales?', ['ask_user']);
  const turnId = first.frames[0].turn_id;
  const job = await db.query(`SELECT run_at > now() + interval '23 hours' AS later FROM graphile_worker._private_jobs WHERE key = $1`, [`chat.ask_user:${turnId}`]);
  t.equal(job.rows[0]?.later, true, 'a keyed job waits 24 h');
  // Drive the clock: the 24 h are over.
  await db.query(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = $1`, [`chat.ask_user:${turnId}`]);
  const last = first.frames.at(-1)!.seq;
  const followed = await until(async () => {
    const r = await tp.request({ url: `/api/chat/${session}/stream?after=${last}`, token });
    const frames = parseSse(String(r.body));
    return frames.some((f) => f.type === 'done') ? frames : undefined;
  }, 'the timed-out turn to finish');
  t.same(followed.find((f) => f.type === 'tool_status'), { seq: last + 2, type: 'tool_status', status: 'timed_out', tool_call_id: 'call_q', name: 'ask_user' });
  t.equal(textOf(followed), 'No answer; assuming 2025.');
  const result = JSON.parse(llm!.requests[1].body.messages.at(-1).content);
  t.equal(result.status, 'timed_out');
  t.equal(result.waited_seconds, 86400);
  const late = await tp.request({ method: 'POST', url: `/api/chat/${session}/human-input`, token, payload: { tool_call_id: 'call_q', answer: '2025' } });
  t.equal(late.status, 409, 'an answer after the timeout is refused');
});

t.test('a suspended turn survives a restart: answered through a second instance', async (t) => {
  const first = await chatFixture(t);
  const session = await newSession(first.tp, first.token);
  first.llm!.enqueue({ chunks: toolCallChunks('call_q', 'ask_user', QUESTION) }, { chunks: textChunks('Resumed elsewhere.') });
  const asked = await ask(first.tp, first.token, session, 'How were sales?', ['ask_user']);
  t.equal(asked.frames.at(-1)!.status, 'awaiting_input');
  await first.tp.stop();

  const { ADMIN_TOKEN, PLATFORM_MASTER_KEY, SERVICE_JWT_SECRET } = first.tp.env;
  const second = await startTestPlatform(t, {
    databaseUrl: first.tp.databaseUrl,
    env: { PLATFORM_MANIFEST: MANIFEST, LLM_BASE_URL: first.llm!.baseUrl, LLM_MODEL: 'scripted-1', ADMIN_TOKEN, PLATFORM_MASTER_KEY, SERVICE_JWT_SECRET },
  });
  await second.platform.start();
  const answered = await second.request({ method: 'POST', url: `/api/chat/${session}/human-input`, token: first.token, payload: { tool_call_id: 'call_q', answer: '2025' } });
  t.equal(answered.status, 200);
  const frames = parseSse(String(answered.body));
  t.equal(textOf(frames), 'Resumed elsewhere.');
  t.equal(frames.at(-1)!.status, 'completed');
  t.equal(JSON.parse(first.llm!.requests[1].body.messages.at(-1).content).answer, '2025');
  const replay = await second.request({ url: `/api/chat/${session}/stream?after=0`, token: first.token });
  const all = parseSse(String(replay.body));
  t.same(all.map((f) => f.seq), all.map((_, i) => i + 1), 'the whole turn replays, across both processes');
});

t.test('the surface declares ask_user but the agent is not granted it: never offered, never blocks', async (t) => {
  const { tp, llm, token } = await chatFixture(t);
  tp.platform.core.functions.register('noop', { description: 'noop', parameters: { properties: {} }, handler: async () => ({ ok: true }) });
  t.equal((await tp.request({ method: 'POST', url: '/api/admin/agents', token, payload: { name: 'no-questions', functions: ['noop'] } })).status, 201);
  const session = (await tp.request({ method: 'POST', url: '/api/sessions', token, payload: { agent_name: 'no-questions' } })).body.id;
  llm!.enqueue({ chunks: toolCallChunks('call_q', 'ask_user', QUESTION) }, { chunks: textChunks('Going on without asking.') });
  const answer = await ask(tp, token, session, 'How were sales?', ['ask_user']);
  t.same(llm!.requests[0].body.tools.map((tool: any) => tool.function.name), ['noop'], 'ask_user is not offered');
  t.notOk(answer.frames.some((f) => f.type === 'tool_status' && f.status === 'awaiting_input'), 'no blocking question');
  t.match(answer.frames.find((f) => f.type === 'tool_status'), { status: 'failed', name: 'ask_user', error: 'not granted' });
  t.equal(answer.frames.at(-1)!.status, 'completed');
  t.match(JSON.parse(llm!.requests[1].body.messages.at(-1).content), { error: /not available/ });
  t.same((await messagesOf(tp, token, session)).at(-1)!.tool_metadata.tool_calls, [{ id: 'call_q', name: 'ask_user', status: 'refused' }]);
});
