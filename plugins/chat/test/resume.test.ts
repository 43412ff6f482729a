// Resume after a dropped connection: the turn keeps running, its frames are
// kept, and GET /api/chat/{session_id}/stream?after=<seq> replays the rest
// and follows the turn to its end.
import t from 'tap';
import { textChunks } from '../../../test/fixtures/chat/scripted-llm.ts';
import { chatFixture, member, messagesOf, newSession, openStream, parseSse, textOf } from './helpers.ts';

const ANSWER = 'A fairly long answer that streams slowly so that the page can be refreshed half way through it.';

t.test('a dropped client picks the answer up where it was', async (t) => {
  const { tp, llm, token, tenant } = await chatFixture(t);
  const session = await newSession(tp, token);
  // The model pauses after 6 chunks until the client has dropped (no race with the turn's end).
  const gate = Promise.withResolvers<void>();
  llm!.enqueue({ chunks: textChunks(ANSWER, 3), delayMs: 5, gate: { pauseAt: 6, until: gate.promise } });
  const first = openStream(tp, token, `/api/chat/${session}`, { body: { content: 'go' } });
  await first.waitFor((frames) => frames.filter((f) => f.type === 'text').length >= 4, 'some text');
  first.drop();
  await first.done;
  gate.resolve();
  const seen = first.frames.at(-1)!.seq;
  t.notOk(first.frames.some((f) => f.type === 'done'), 'dropped before the end');

  // The refreshed page follows from the last seq it saw (live, from this process's channel).
  const resumed = openStream(tp, token, `/api/chat/${session}/stream?after=${seen}`, { method: 'GET' });
  await resumed.done;
  t.equal(resumed.frames[0].seq, seen + 1, 'no frame twice, none missing');
  const all = [...first.frames, ...resumed.frames];
  t.same(all.map((f) => f.seq), all.map((_, i) => i + 1));
  t.equal(textOf(all), ANSWER);
  t.equal(all.at(-1)!.status, 'completed');
  t.equal((await messagesOf(tp, token, session)).at(-1)!.content, ANSWER, 'the turn finished without its client');

  // After the end, the stored frames replay from anywhere.
  const replay = await tp.request({ url: `/api/chat/${session}/stream?after=3`, token });
  t.equal(replay.status, 200);
  const frames = parseSse(String(replay.body));
  t.same(frames.map((f) => f.seq), all.slice(3).map((f) => f.seq));

  const other = await member(tp, tenant, 'eve');
  const forbidden = await tp.request({ url: `/api/chat/${session}/stream?after=0`, token: other });
  t.equal(forbidden.status, 403, 'only the owner follows a session');
  const badAfter = await tp.request({ url: `/api/chat/${session}/stream?after=-1`, token });
  t.equal(badAfter.status, 400);
  const none = await newSession(tp, token);
  const noTurn = await tp.request({ url: `/api/chat/${none}/stream`, token });
  t.equal(noTurn.status, 404);
});

t.test('frames are persisted in batches while the turn runs', async (t) => {
  const { tp, llm, token } = await chatFixture(t);
  const session = await newSession(tp, token);
  llm!.enqueue({ chunks: textChunks(ANSWER, 1), delayMs: 5 });
  const stream = openStream(tp, token, `/api/chat/${session}`, { body: { content: 'go' } });
  await stream.done;
  const rows = await tp.platform.core.withTenant('acme', (trx) =>
    trx.selectFrom('chat_turn_frames').select(['first_seq', 'last_seq']).orderBy('first_seq').execute());
  const count = rows.reduce((n, r) => n + r.last_seq - r.first_seq + 1, 0);
  t.equal(count, stream.frames.length, 'every frame is stored once');
  t.ok(rows.length < stream.frames.length / 2, `fewer rows (${rows.length}) than frames (${stream.frames.length})`);
});

t.test('a reconnect to the running process gets frames not yet written to Postgres', async (t) => {
  // Flushes every 5 s: the frames of this short answer are all still queued in the writer.
  const { tp, llm, token } = await chatFixture(t, { manifest: 'test/fixtures/manifests/chat-slow-flush.yaml' });
  const session = await newSession(tp, token);
  const gate = Promise.withResolvers<void>();
  llm!.enqueue({ chunks: textChunks(ANSWER, 3), delayMs: 5, gate: { pauseAt: 6, until: gate.promise } });
  const first = openStream(tp, token, `/api/chat/${session}`, { body: { content: 'go' } });
  await first.waitFor((frames) => frames.filter((f) => f.type === 'text').length >= 4, 'some text');
  first.drop();
  await first.done;
  const stored = await tp.platform.core.withTenant('acme', (trx) => trx.selectFrom('chat_turn_frames').select('turn_id').execute());
  t.same(stored, [], 'nothing flushed yet');
  const resumed = openStream(tp, token, `/api/chat/${session}/stream?after=2`, { method: 'GET' });
  // The model goes on once the reader is attached (its first replayed frame arrived).
  await resumed.waitFor((frames) => frames.length > 0, 'the replay to start');
  gate.resolve();
  await resumed.done;
  t.same(resumed.frames.map((f) => f.seq), resumed.frames.map((_, i) => i + 3), 'from seq 3 on, none missing or twice');
  t.equal(textOf([...first.frames.slice(0, 2), ...resumed.frames]), ANSWER);
  t.equal(resumed.frames.at(-1)!.status, 'completed');
});
