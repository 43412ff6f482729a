// Turns and the life of their process and session: deleting a session stops
// its running answer; a turn whose process died is ended by the sweep (its
// session takes questions again, readers stop following, a zombie runner
// stops too).
import t from 'tap';
import { textChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { sweepHandler } from '../tasks/chat.sweep.ts';
import { emitterOf } from '../events/emitter.ts';
import { defaultOptions } from '../options.ts';
import { ask, chatFixture, eventsOf, messagesOf, newSession, openStream, textOf } from './helpers.ts';

const LONG = 'Words keep coming slowly. '.repeat(100);

t.test('deleting a session stops its running answer', async (t) => {
  const { tp, llm, token } = await chatFixture(t);
  const session = await newSession(tp, token);
  llm!.enqueue({ chunks: textChunks(LONG, 4), delayMs: 15, hold: true });
  const stream = openStream(tp, token, `/api/chat/${session}`, { body: { content: 'go' } });
  await stream.waitFor((frames) => frames.some((f) => f.type === 'text'), 'text');
  t.equal((await tp.request({ method: 'DELETE', url: `/api/sessions/${session}`, token })).status, 204);
  await stream.done;
  t.equal(stream.frames.at(-1)!.status, 'stopped');
  await llm!.requests[0].finished;
  t.equal(llm!.requests[0].closedByClient, true);
});

t.test('the sweep ends a turn whose runner died', async (t) => {
  const { tp, llm, token } = await chatFixture(t);
  const core = tp.platform.core;
  const session = await newSession(tp, token);
  llm!.enqueue({ chunks: textChunks(LONG, 4), delayMs: 15, hold: true });
  const stream = openStream(tp, token, `/api/chat/${session}`, { body: { content: 'go' } });
  await stream.waitFor((frames) => frames.filter((f) => f.type === 'text').length >= 3, 'text');
  const turnId = stream.frames[0].turn_id;
  // As if the turn belonged to a process that stopped heartbeating.
  await core.withTenant('acme', (trx) => trx.updateTable('chat_turns').set({ runner_id: crypto.randomUUID() }).where('id', '=', turnId).execute());
  const swept = await sweepHandler(core, defaultOptions, emitterOf(core))();
  t.equal(swept.orphans, 1);
  const turn = await core.withTenant('acme', (trx) => trx.selectFrom('chat_turns').select(['status', 'assistant_message_id']).where('id', '=', turnId).executeTakeFirstOrThrow());
  t.equal(turn.status, 'failed');
  const stored = (await messagesOf(tp, token, session)).at(-1)!;
  t.same([stored.role, stored.tool_metadata.interrupted, stored.tool_metadata.error.code], ['assistant', true, 'INTERRUPTED']);
  t.same((await eventsOf(tp, token, 'agent.loop.failed')).map((e) => e.data.reason), ['interrupted']);

  // The zombie runner here notices the turn is no longer its own and stops.
  await llm!.requests[0].finished;
  t.equal(llm!.requests[0].closedByClient, true, 'the zombie aborted its model request');
  await stream.done;
  const follow = await tp.request({ url: `/api/chat/${session}/stream?after=0`, token });
  t.match(String(follow.body), /"type":"done","status":"failed"/, 'a reader sees the turn end');

  llm!.enqueue({ chunks: textChunks('Back again.') });
  const next = await ask(tp, token, session, 'still there?');
  t.equal(textOf(next.frames), 'Back again.', 'the session takes questions again');
});
