// Per-tenant limits: running chat turns
// (CHAT_MAX_CONCURRENT_TURNS_PER_TENANT, counted in Postgres) and open SSE
// streams (CHAT_MAX_CONCURRENT_STREAMS_PER_TENANT, across processes). Past either,
// 429 with Retry-After and nothing stored; other tenants are not affected;
// a freed slot is taken again.
import t from 'tap';
import { textChunks, toolCallChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { tenantWithAdmin } from 'agent-platform/sdk/testing';
import { ask, chatFixture, messagesOf, newSession, openStream, parseSse, textOf, until } from './helpers.ts';

t.test('the limit+1-th concurrent turn of a tenant gets 429 with Retry-After and stores nothing', async (t) => {
  const { tp, llm, token } = await chatFixture(t, { env: { CHAT_MAX_CONCURRENT_TURNS_PER_TENANT: '2' } });
  const sessions = [await newSession(tp, token), await newSession(tp, token), await newSession(tp, token)];
  // A turn waiting for an ask_user answer holds nothing and does not count.
  const asking = await newSession(tp, token);
  llm!.enqueue({ chunks: toolCallChunks('call_q', 'ask_user', { question: 'Which year?' }) });
  const suspended = await ask(tp, token, asking, 'How were sales?', ['ask_user']);
  t.equal(suspended.frames.at(-1)!.status, 'awaiting_input');
  let open!: () => void;
  const gate = new Promise((resolve) => (open = () => resolve(undefined)));
  llm!.enqueue({ chunks: textChunks('First answer.'), gate: { pauseAt: 0, until: gate } }, { chunks: textChunks('Second answer.'), gate: { pauseAt: 0, until: gate } });
  const first = openStream(tp, token, `/api/chat/${sessions[0]}`, { body: { content: 'one' } });
  const second = openStream(tp, token, `/api/chat/${sessions[1]}`, { body: { content: 'two' } });
  await until(async () => llm!.requests.length === 3, 'two turns waiting for the model');

  const refused = await ask(tp, token, sessions[2], 'three');
  t.equal(refused.status, 429);
  t.equal(refused.headers['retry-after'], '5', 'Retry-After says when to come back');
  t.match(refused.body, { statusCode: 429, code: 'TURN_LIMIT_EXCEEDED', message: /limit 2/ });
  t.same(await messagesOf(tp, token, sessions[2]), [], 'no question was stored for the refused turn');
  const turns = await tp.platform.core.withTenant('acme', (trx) => trx.selectFrom('chat_turns').select(['session_id', 'status']).execute());
  t.same(turns.map((row) => row.session_id).sort(), [sessions[0], sessions[1], asking].sort(), 'and no turn');
  t.equal(llm!.requests.length, 3, 'nor a model request');
  const answer = { method: 'POST', url: `/api/chat/${asking}/human-input`, token, payload: { tool_call_id: 'call_q', answer: '2025' } } as const;
  const refusedAnswer = await tp.request(answer);
  t.same([refusedAnswer.status, refusedAnswer.body.code, refusedAnswer.headers['retry-after']], [429, 'TURN_LIMIT_EXCEEDED', '5'], 'an answer would run the turn again: refused too');

  // Another tenant runs its own turns meanwhile.
  const globex = await tenantWithAdmin(tp, 'globex');
  const theirs = await newSession(tp, globex.token);
  llm!.enqueue({ chunks: textChunks('Globex answer.') });
  const other = await ask(tp, globex.token, theirs, 'hello from globex');
  t.equal(other.status, 200, 'another tenant is not affected');
  t.equal(textOf(other.frames), 'Globex answer.');

  open();
  await Promise.all([first.done, second.done]);
  t.equal(first.frames.at(-1)!.status, 'completed');
  llm!.enqueue({ chunks: textChunks('Third answer.') });
  const accepted = await ask(tp, token, sessions[2], 'three again');
  t.equal(accepted.status, 200, 'once the turns finished a new turn is accepted');
  t.equal(textOf(accepted.frames), 'Third answer.');
  llm!.enqueue({ chunks: textChunks('It was 2025.') });
  const answered = await tp.request(answer);
  t.equal(answered.status, 200, 'the refused answer was kept waiting and is taken now');
  t.equal(textOf(parseSse(String(answered.body))), 'It was 2025.');
});

t.test('the limit+1-th open SSE stream of a tenant gets 429; closing one frees its slot', async (t) => {
  const { tp, llm, token } = await chatFixture(t, { env: { CHAT_MAX_CONCURRENT_STREAMS_PER_TENANT: '2' } });
  const session = await newSession(tp, token);
  const idle = await newSession(tp, token);
  llm!.enqueue({ chunks: textChunks('A long answer.'), hold: true });
  const asking = openStream(tp, token, `/api/chat/${session}`, { body: { content: 'hold on' } });
  await asking.waitFor((frames) => frames.some((f) => f.type === 'text'), 'the answer to stream');
  const follower = openStream(tp, token, `/api/chat/${session}/stream`, { method: 'GET' });
  await follower.waitFor((frames) => frames.some((f) => f.type === 'text'), 'the follower to replay');

  const third = await tp.request({ url: `/api/chat/${session}/stream`, token });
  t.equal(third.status, 429);
  t.equal(third.headers['retry-after'], '5');
  t.equal(third.body.code, 'STREAM_LIMIT_EXCEEDED');
  const question = await ask(tp, token, idle, 'may I?');
  t.same([question.status, question.body.code], [429, 'STREAM_LIMIT_EXCEEDED'], 'a question is a stream too');
  t.same(await messagesOf(tp, token, idle), [], 'and nothing of it is stored');

  const globex = await tenantWithAdmin(tp, 'globex');
  const theirs = await newSession(tp, globex.token);
  llm!.enqueue({ chunks: textChunks('Globex answer.') });
  t.equal((await ask(tp, globex.token, theirs, 'hi')).status, 200, 'another tenant is not affected');

  follower.drop();
  await until(async () => (await fetchStatus(tp.url(`/api/chat/${session}/stream`), token)) === 200, 'a slot to free once the follower left');
  const cancelled = await tp.request({ method: 'POST', url: `/api/chat/${session}/cancel`, token });
  t.equal(cancelled.status, 200);
  await asking.done;
  llm!.enqueue({ chunks: textChunks('Now yes.') });
  const later = await ask(tp, token, idle, 'now?');
  t.equal(later.status, 200, 'streams that ended gave their slots back');
  t.equal(textOf(later.frames), 'Now yes.');
});

t.test('streams asked for at once are admitted together up to the limit, the rest refused', async (t) => {
  const { tp, llm, token } = await chatFixture(t, { env: { CHAT_MAX_CONCURRENT_STREAMS_PER_TENANT: '3' } });
  const session = await newSession(tp, token);
  llm!.enqueue({ chunks: textChunks('A long answer.'), hold: true });
  const asking = openStream(tp, token, `/api/chat/${session}`, { body: { content: 'hold on' } });
  await asking.waitFor((frames) => frames.some((f) => f.type === 'text'), 'the answer to stream');

  // Four followers at once: two free slots; the admitted ones stay open until the end.
  const controller = new AbortController();
  t.teardown(() => controller.abort());
  const statuses = await Promise.all(Array.from({ length: 4 }, () => fetch(tp.url(`/api/chat/${session}/stream`), {
    headers: { authorization: `Bearer ${token}` }, signal: controller.signal,
  }).then((response) => response.status)));
  t.same(statuses.sort(), [200, 200, 429, 429], 'two admitted, two refused');
  controller.abort();
  const cancelled = await tp.request({ method: 'POST', url: `/api/chat/${session}/cancel`, token });
  t.equal(cancelled.status, 200);
  await asking.done;
});

/** Opens a stream, reads the status and leaves at once. */
async function fetchStatus(url: string, token: string): Promise<number> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  controller.abort();
  return response.status;
}
