// The model client against a real OpenAI-compatible server on loopback: the
// SSE body read however it is cut into TCP writes (an event split across
// writes, a character split across writes, several events in one write, CRLF
// lines), and the idle timeout: chunks that keep coming push it back, a
// stream that falls silent fails with MODEL_TIMEOUT.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import type { Test } from 'tap';
import { createOpenAiClient } from '../model/openai-client.ts';
import { ModelError } from '../model/types.ts';
import { SseReader } from '../model/sse-lines.ts';

const delta = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
const stop = `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A model server whose every response writes `writes` (strings or raw bytes), `gapMs` apart. */
async function modelServer(t: Test, writes: (string | Buffer)[], gapMs: number, endAfter = true) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      for (const piece of writes) {
        if (res.destroyed) return;
        await sleep(gapMs);
        res.write(piece);
      }
      if (endAfter) res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

function client(baseUrl: string, idleTimeoutMs: number) {
  return createOpenAiClient({ baseUrl, apiKey: undefined, attempts: 1, retryBaseMs: 1, idleTimeoutMs });
}

const call = { model: 'm', messages: [{ role: 'user' as const, content: 'go' }] };

t.test('the body however it is cut: every delta in order, the text whole', async (t) => {
  const euro = Buffer.from(delta('5 €'));
  const cut = euro.indexOf(0xe2) + 1; // inside the euro sign's three bytes
  const base = await modelServer(t, [
    delta('Hello'),
    delta(', wor').slice(0, 9), delta(', wor').slice(9),
    euro.subarray(0, cut), euro.subarray(cut),
    `${delta(' and')}${delta(' more')}`,
    delta(' crlf').replace(/\n/g, '\r\n'),
    `: a comment\nid: 7\n${delta('!')}`,
    stop, 'data: [DONE]\n\n',
  ], 5);
  const deltas: string[] = [];
  const reply = await client(base, 10_000).stream(call, { signal: new AbortController().signal, onText: (d) => deltas.push(d) });
  t.same(deltas, ['Hello', ', wor', '5 €', ' and', ' more', ' crlf', '!']);
  t.equal(reply.text, 'Hello, wor5 € and more crlf!');
  t.equal(reply.finishReason, 'stop');
});

t.test('idle timeout: chunks that keep coming push it back; silence fails the stream', async (t) => {
  // 24 chunks 25 ms apart: 600 ms in all, more than twice the idle timeout.
  const steady = await modelServer(t, [...Array.from({ length: 24 }, (_, i) => delta(`${i} `)), stop, 'data: [DONE]\n\n'], 25);
  const reply = await client(steady, 250).stream(call, { signal: new AbortController().signal, onText: () => {} });
  t.equal(reply.text.split(' ').filter(Boolean).length, 24, 'every chunk arrived, no timeout');

  const silent = await modelServer(t, [delta('only this')], 5, false);
  const deltas: string[] = [];
  const error = await client(silent, 150).stream(call, { signal: new AbortController().signal, onText: (d) => deltas.push(d) })
    .then(() => undefined, (err: unknown) => err);
  t.ok(error instanceof ModelError, 'a model error');
  t.equal((error as ModelError).code, 'MODEL_TIMEOUT');
  t.same(deltas, ['only this'], 'what came before the silence was handed on');
});

t.test('SseReader: an event with several data lines, an id, and what is left at the end', async (t) => {
  const reader = new SseReader();
  const events: [string, string | undefined][] = [];
  const on = (data: string, id: string | undefined) => events.push([data, id]);
  reader.feed('id: 3\r\ndata: a\ndata:b\n\nda', on);
  reader.feed('ta: tail', on);
  t.same(events, [['a\nb', '3']]);
  reader.close(on);
  t.same(events, [['a\nb', '3'], ['tail', '3']]);
});
