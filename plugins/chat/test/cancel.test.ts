// Cancel (embed-chat 3): stopped while streaming (the model's stream is
// really closed), stopped before any text, cancelling between model calls,
// no_active_turn, a late cancel, a question right after Stop, and a cancel
// that lands on another server process than the stream.
import t from 'tap';
import { textChunks, toolCallChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { startTestPlatform } from 'agent-platform/sdk/testing';
import { ask, chatFixture, messagesOf, newSession, openStream, textOf, until, MANIFEST } from './helpers.ts';

const LONG = 'This answer goes on and on, one small piece at a time, for a long while. '.repeat(20);

t.test('stop while streaming: nothing more is published, the model stream is closed, the reply is stored interrupted', async (t) => {
  const { tp, llm, token } = await chatFixture(t);
  const session = await newSession(tp, token);
  llm!.enqueue({ chunks: textChunks(LONG, 4), delayMs: 15, hold: true });
  const stream = openStream(tp, token, `/api/chat/${session}`, { body: { content: 'Tell me everything' } });
  await stream.waitFor((frames) => frames.filter((f) => f.type === 'text').length >= 5, 'some text');
  const cancelled = await tp.request({ method: 'POST', url: `/api/chat/${session}/cancel`, token });
  t.equal(cancelled.status, 200);
  t.equal(cancelled.body.status, 'stopped');
  t.equal(cancelled.body.session_id, session);
  t.equal(cancelled.body.turn_id, stream.frames[0].turn_id);
  await stream.done;
  const frames = stream.frames;
  t.same(frames.slice(-2).map((f) => [f.type, f.interrupted ?? f.status]), [['message', true], ['done', 'stopped']]);
  await llm!.requests[0].finished;
  t.equal(llm!.requests[0].closedByClient, true, 'the scripted model server saw its stream closed');
  const written = llm!.requests[0].written;
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.equal(llm!.requests[0].written, written, 'no more tokens were produced');
  const messages = await messagesOf(tp, token, session);
  t.equal(messages.at(-1)!.role, 'assistant');
  t.equal(messages.at(-1)!.tool_metadata.interrupted, true);
  t.equal(messages.at(-1)!.content, textOf(frames), 'the stored reply is what was streamed');
  t.ok(messages.at(-1)!.content.length > 0 && messages.at(-1)!.content.length < LONG.length);

  const late = await tp.request({ method: 'POST', url: `/api/chat/${session}/cancel`, token });
  t.same(late.body, { status: 'no_active_turn', session_id: session, turn_id: null }, 'a late cancel changes nothing');
  llm!.enqueue({ chunks: textChunks('The next answer.'), delayMs: 20 });
  const nextStream = openStream(tp, token, `/api/chat/${session}`, { body: { content: 'next' } });
  await nextStream.waitFor((frames) => frames.some((f) => f.type === 'text'), 'the next answer to stream');
  const stale = await tp.request({ method: 'POST', url: `/api/chat/${session}/cancel?turn_id=${stream.frames[0].turn_id}`, token });
  t.same(stale.body, { status: 'no_active_turn', session_id: session, turn_id: null }, 'a cancel naming the old turn does not stop the new one');
  await nextStream.done;
  const next = { frames: nextStream.frames };
  t.equal(textOf(next.frames), 'The next answer.', 'and does not stop the next question');
  t.equal(next.frames.at(-1)!.status, 'completed');
});

t.test('stop before any text still stores an interrupted reply', async (t) => {
  const { tp, llm, token } = await chatFixture(t);
  const session = await newSession(tp, token);
  llm!.enqueue({ chunks: [], hold: true });
  const stream = openStream(tp, token, `/api/chat/${session}`, { body: { content: 'Hello?' } });
  await until(async () => llm!.requests.length === 1, 'the model request');
  const busy = await ask(tp, token, session, 'and another thing');
  t.same([busy.status, busy.body.code], [409, 'TURN_IN_PROGRESS'], 'a second question while one is answered (not stopped) is refused');
  const cancelled = await tp.request({ method: 'POST', url: `/api/chat/${session}/cancel`, token });
  t.equal(cancelled.body.status, 'stopped');
  await stream.done;
  t.equal(stream.frames.at(-1)!.status, 'stopped');
  await llm!.requests[0].finished;
  t.equal(llm!.requests[0].closedByClient, true);
  const messages = await messagesOf(tp, token, session);
  t.same([messages.at(-1)!.role, messages.at(-1)!.content, messages.at(-1)!.tool_metadata.interrupted], ['assistant', '', true]);
});

t.test('cancel between model calls: cancelling, and no further model call or tool runs', async (t) => {
  const { tp, llm, token } = await chatFixture(t);
  let release!: () => void;
  const calls: string[] = [];
  tp.platform.core.functions.register('slow_report', {
    description: 'slow', parameters: { properties: {} },
    handler: async () => {
      calls.push('slow_report');
      await new Promise<void>((resolve) => (release = resolve));
      return { ok: true };
    },
  });
  tp.platform.core.functions.register('second_tool', { description: 'x', parameters: { properties: {} }, handler: async () => calls.push('second_tool') });
  await tp.request({ method: 'POST', url: '/api/admin/agents', token, payload: { name: 'reporter', functions: ['slow_report', 'second_tool'] } });
  const session = (await tp.request({ method: 'POST', url: '/api/sessions', token, payload: { agent_name: 'reporter' } })).body.id;
  llm!.enqueue({ chunks: [...toolCallChunks('c1', 'slow_report', {}, 0), ...toolCallChunks('c2', 'second_tool', {}, 1)] });
  const stream = openStream(tp, token, `/api/chat/${session}`, { body: { content: 'report please' } });
  await until(async () => calls.length === 1, 'the tool to run');
  const cancelled = await tp.request({ method: 'POST', url: `/api/chat/${session}/cancel`, token });
  t.equal(cancelled.body.status, 'cancelling');
  await stream.done;
  release();
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.same(calls, ['slow_report'], 'the next tool did not run');
  t.equal(llm!.requests.length, 1, 'no further model call');
  t.equal(stream.frames.at(-1)!.status, 'cancelled');
  const messages = await messagesOf(tp, token, session);
  t.equal(messages.at(-1)!.tool_metadata.interrupted, true);

  const idle = await tp.request({ method: 'POST', url: `/api/chat/${session}/cancel`, token });
  t.equal(idle.body.status, 'no_active_turn');
});

t.test('a question sent right after Stop waits until the stop has finished', async (t) => {
  const { tp, llm, token } = await chatFixture(t, { manifest: 'test/fixtures/manifests/chat-no-stop-wait.yaml' });
  const session = await newSession(tp, token);
  llm!.enqueue({ chunks: textChunks(LONG, 4), delayMs: 15, hold: true }, { chunks: textChunks('Fresh answer.') });
  const stream = openStream(tp, token, `/api/chat/${session}`, { body: { content: 'first' } });
  await stream.waitFor((frames) => frames.some((f) => f.type === 'text'), 'text');
  // stopWaitMs 0: the cancel answers as soon as it is recorded, before the stop is written.
  const cancelled = await tp.request({ method: 'POST', url: `/api/chat/${session}/cancel`, token });
  t.equal(cancelled.body.status, 'stopped');
  const next = await ask(tp, token, session, 'second');
  t.equal(next.status, 200, 'not refused as busy');
  t.equal(textOf(next.frames), 'Fresh answer.');
  await stream.done;
  t.equal(stream.frames.at(-1)!.status, 'stopped', 'the late question did not disturb the stop');
  const messages = await messagesOf(tp, token, session);
  t.same(messages.map((m) => [m.role, m.tool_metadata.interrupted ?? null]),
    [['user', null], ['assistant', true], ['user', null], ['assistant', false]]);
});

t.test('a cancel that reaches another server process stops the stream', async (t) => {
  const a = await chatFixture(t);
  const { ADMIN_TOKEN, PLATFORM_MASTER_KEY, SERVICE_JWT_SECRET } = a.tp.env;
  const b = await startTestPlatform(t, {
    databaseUrl: a.tp.databaseUrl,
    env: { PLATFORM_MANIFEST: MANIFEST, LLM_BASE_URL: a.llm!.baseUrl, ADMIN_TOKEN, PLATFORM_MASTER_KEY, SERVICE_JWT_SECRET },
  });
  await b.platform.start();
  const session = await newSession(a.tp, a.token);
  a.llm!.enqueue({ chunks: textChunks(LONG, 4), delayMs: 15, hold: true });
  const stream = openStream(a.tp, a.token, `/api/chat/${session}`, { body: { content: 'long one' } });
  await stream.waitFor((frames) => frames.filter((f) => f.type === 'text').length >= 3, 'text');

  // B follows the turn running on A (from Postgres).
  const follower = openStream(b, a.token, `/api/chat/${session}/stream?after=0`, { method: 'GET' });
  await follower.waitFor((frames) => frames.some((f) => f.type === 'text'), 'B to follow A\'s turn');

  const cancelled = await b.request({ method: 'POST', url: `/api/chat/${session}/cancel`, token: a.token });
  t.equal(cancelled.body.status, 'stopped');
  await stream.done;
  await follower.done;
  t.equal(stream.frames.at(-1)!.status, 'stopped');
  await a.llm!.requests[0].finished;
  t.equal(a.llm!.requests[0].closedByClient, true, 'A aborted the model request');
  t.same(follower.frames.map((f) => f.seq), stream.frames.map((f) => f.seq), 'B\'s reader saw exactly A\'s frames');
  t.equal(follower.frames.at(-1)!.status, 'stopped');
});
