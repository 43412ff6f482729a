// A session idle longer than sessionIdleTimeoutSeconds
// (default 1800) ends: is_active false and chat.session.ended {reason:
// idle_timeout}, once; a session whose answer waits for a person does not; a
// new question reopens an ended session. The sweep reads the platform's clock,
// which the test drives (no real waiting).
import t from 'tap';
import { textChunks, toolCallChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { sweepHandler, SWEEP_TASK } from '../tasks/chat.sweep.ts';
import { emitterOf } from '../events/emitter.ts';
import { defaultOptions } from '../options.ts';
import { ask, chatFixture, eventsOf, messagesOf, newSession, textOf, until } from './helpers.ts';

const IDLE_S = defaultOptions.sessionIdleTimeoutSeconds;

t.test('idle sessions end once, with reason idle_timeout; a new question reopens them', async (t) => {
  t.equal(IDLE_S, 1800, 'the default idle timeout');
  let aheadMs = 0;
  const { tp, llm, token } = await chatFixture(t, { services: { clock: { now: () => new Date(Date.now() + aheadMs) } } });
  const core = tp.platform.core;
  const sweep = sweepHandler(core, defaultOptions, emitterOf(core));
  const sessionOf = async (id: string) => (await tp.request({ url: `/api/sessions/${id}`, token })).body;
  const endedEvents = async (id: string) => (await eventsOf(tp, token, 'chat.session.ended')).filter((e) => e.data.session_id === id);

  const idle = await newSession(tp, token);
  llm!.enqueue({ chunks: textChunks('Hello there.') });
  t.equal((await ask(tp, token, idle, 'hello')).status, 200);
  // Another session whose answer waits for a person: not idle, however long it waits.
  const waiting = await newSession(tp, token);
  llm!.enqueue({ chunks: toolCallChunks('call_q', 'ask_user', { question: 'Which year?' }) });
  t.equal((await ask(tp, token, waiting, 'How were sales?', ['ask_user'])).frames.at(-1)!.status, 'awaiting_input');

  aheadMs = (IDLE_S - 60) * 1000;
  t.equal((await sweep()).idle, 0, 'a minute before the timeout nothing ends');
  t.equal((await sessionOf(idle)).is_active, true);

  // Past the timeout, the server's own sweep task ends the idle session.
  aheadMs = (IDLE_S + 1) * 1000;
  await core.jobs.enqueueLong(SWEEP_TASK, {});
  await until(async () => (await sessionOf(idle)).is_active === false, 'the sweep to end the idle session');
  await until(async () => (await endedEvents(idle)).length > 0, 'its event');
  t.equal((await sweep()).idle, 0, 'a later sweep ends nothing more');
  const [ended, ...more] = await endedEvents(idle);
  t.same(ended.data, { session_id: idle, client_id: (await sessionOf(idle)).client_id, reason: 'idle_timeout' });
  t.same(more, [], 'chat.session.ended exactly once');
  t.equal((await sessionOf(waiting)).is_active, true, 'the session waiting for an answer is not ended');
  t.same(await endedEvents(waiting), []);

  // Ended is not deleted: readable by id (not listed: the list has active sessions only), and a new question reopens it.
  const listedIds = async () => (await tp.request({ url: '/api/sessions', token })).body.items.map((s: { id: string }) => s.id);
  t.notOk((await listedIds()).includes(idle), 'an ended session is not listed');
  t.ok((await listedIds()).includes(waiting), 'an active one is');
  t.same((await messagesOf(tp, token, idle)).map((m) => m.content), ['hello', 'Hello there.'], 'its messages stay readable');
  aheadMs = 0;
  llm!.enqueue({ chunks: textChunks('Welcome back.') });
  const reopened = await ask(tp, token, idle, 'are you there?');
  t.equal(reopened.status, 200, 'a new question to an ended session is answered');
  t.equal(textOf(reopened.frames), 'Welcome back.');
  t.equal((await sessionOf(idle)).is_active, true, 'and reopens it');
  t.ok((await listedIds()).includes(idle), 'listed again');

  // Idle again: a second ending, a second event.
  aheadMs = (IDLE_S + 120) * 1000;
  t.ok((await sweep()).idle >= 1);
  t.equal((await sessionOf(idle)).is_active, false);
  t.same((await endedEvents(idle)).map((e) => e.data.reason), ['idle_timeout', 'idle_timeout'], 'one event per ending');

  // Deleting an ended session still deletes it.
  t.equal((await tp.request({ method: 'DELETE', url: `/api/sessions/${idle}`, token })).status, 204);
  t.equal((await tp.request({ url: `/api/sessions/${idle}`, token })).status, 404);
  t.same((await endedEvents(idle)).map((e) => e.data.reason).sort(), ['deleted', 'idle_timeout', 'idle_timeout']);
});
