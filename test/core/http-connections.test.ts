// The listener's connection limits through the real server on a loopback
// port: a head that never finishes is closed (the server lets go of the
// connection, whatever the client does), connections past the cap are
// refused, dropped connections are debug lines without a stack, and an SSE
// response outlives every timeout (they time the request, never the response).
import http from 'node:http';
import net from 'node:net';
import t from 'tap';
import { startTestPlatform, until, type TestPlatform } from '../harness.ts';

const SMALL = { HTTP_HEADERS_TIMEOUT_SECONDS: '1', HTTP_REQUEST_TIMEOUT_SECONDS: '3', HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '1' };

const connections = (tp: TestPlatform) => new Promise<number>((resolve, reject) => {
  tp.platform.server.listener.getConnections((err, count) => (err ? reject(err) : resolve(count)));
});

/** A raw client that never closes its side by itself (as a client that went away without a FIN). */
function rawClient(tp: TestPlatform, send?: string) {
  const socket = net.connect({ port: tp.platform.server.info.port as number, host: '127.0.0.1', allowHalfOpen: true });
  const state = { connected: false, ended: false, closed: false, data: '' };
  socket.on('connect', () => {
    state.connected = true;
    if (send) socket.write(send);
  });
  socket.on('data', (chunk) => (state.data += chunk.toString('latin1')));
  socket.on('end', () => (state.ended = true));
  socket.on('close', () => (state.closed = true));
  socket.on('error', () => {});
  return { socket, state };
}

const levels = (tp: TestPlatform) => tp.logs.map((line) => JSON.parse(line) as { level: number; msg: string; err?: { stack?: string }; code?: string });

t.test('a connection that sends half a request line is closed by the server within the head timeout', async (t) => {
  const tp = await startTestPlatform(t, { listen: true, env: SMALL });
  const clients = Array.from({ length: 20 }, () => rawClient(tp, 'GET /hea'));
  await until(async () => clients.every((client) => client.state.connected) && (await connections(tp)) > 0, 'connected');
  // Node's own default keeps such a connection 60 s at least; hapi's handler then only half-closes it.
  await until(async () => (await connections(tp)) === 0, 'the server to let go of every connection', 15_000);
  await until(async () => clients.every((client) => client.state.ended), 'each client to see the end');
  t.ok(clients.every((client) => client.state.data === '' || client.state.data.startsWith('HTTP/1.1 408')), 'answered 408 at most');
  for (const client of clients) client.socket.destroy();

  const silent = rawClient(tp);
  await until(async () => silent.state.connected, 'connected');
  await until(async () => (await connections(tp)) === 0, 'a connection that sends nothing to be closed too', 15_000);
  silent.socket.destroy();
});

t.test('connections past HTTP_MAX_CONNECTIONS are closed as they arrive; the open ones are served', async (t) => {
  const tp = await startTestPlatform(t, { listen: true, env: { HTTP_MAX_CONNECTIONS: '5', HTTP_HEADERS_TIMEOUT_SECONDS: '30', HTTP_REQUEST_TIMEOUT_SECONDS: '60' } });
  const held = Array.from({ length: 5 }, () => rawClient(tp, 'GET /health HTTP/1.1\r\nHost: x\r\n'));
  await until(async () => held.every((client) => client.state.connected) && (await connections(tp)) === 5, 'five open');
  const refused = Array.from({ length: 3 }, () => rawClient(tp, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n'));
  await until(async () => refused.every((client) => client.state.ended || client.state.closed), 'the extra connections to be closed');
  t.ok(refused.every((client) => client.state.data === ''), 'nothing answered past the cap');
  t.equal(await connections(tp), 5, 'the cap holds');
  t.notOk(held.some((client) => client.state.ended || client.state.closed), 'the open ones stay open');

  held[0]!.socket.write('\r\n');
  await until(async () => held[0]!.state.data.includes('\r\n\r\n'), 'the held request answered');
  t.match(held[0]!.state.data, /^HTTP\/1\.1 200/);
  for (const client of held) client.socket.destroy();
  await until(async () => (await connections(tp)) === 0, 'all closed');
  const after = await fetch(tp.url('/health'));
  t.equal(after.status, 200, 'served again once below the cap');
});

t.test('dropped connections are logged at debug, one line without a stack; none at error', async (t) => {
  const tp = await startTestPlatform(t, { listen: true, captureLogs: true, env: SMALL });
  tp.platform.server.route({
    method: 'POST', path: '/test/echo', options: { auth: false, plugins: { platform: { tenant: 'none' } } },
    handler: (request) => request.payload as object,
  });
  // A head that times out, a malformed request, a reset in the middle of a head, a body cut short.
  const timedOut = rawClient(tp, 'GET /he');
  const malformed = rawClient(tp, 'NOT A REQUEST\r\n\r\n');
  const reset = rawClient(tp, 'GET /health HTTP/1.1\r\nHost: ');
  const cut = rawClient(tp, 'POST /test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":');
  await until(async () => [timedOut, malformed, reset, cut].every((client) => client.state.connected), 'connected');
  await until(async () => malformed.state.ended, 'the malformed request answered');
  t.match(malformed.state.data, /^HTTP\/1\.1 400/);
  await new Promise((resolve) => setTimeout(resolve, 200));
  reset.socket.resetAndDestroy();
  cut.socket.destroy();
  await until(async () => (await connections(tp)) === 0, 'every connection gone', 15_000);
  timedOut.socket.destroy();
  malformed.socket.destroy();

  const lines = levels(tp);
  const dropped = lines.filter((line) => line.msg.startsWith('client connection dropped'));
  t.ok(dropped.length >= 3, `dropped connections logged (${dropped.map((line) => line.code).join(', ')})`);
  t.ok(dropped.every((line) => line.level === 20 && line.err === undefined), 'at debug, without an error or its stack');
  t.ok(dropped.some((line) => line.code === 'ERR_HTTP_REQUEST_TIMEOUT'), 'the timed-out head');
  t.ok(lines.some((line) => line.level === 20 && line.msg.startsWith('[aborted] post /test/echo')), 'the request whose body was cut short: a debug line');
  t.same(lines.filter((line) => line.level >= 40).map((line) => line.msg), [], 'nothing at warn or error');
  t.notOk(tp.logs.some((line) => line.includes('"stack"')), 'no stack in any line');
});

t.test('an SSE stream outlives the head, request and keep-alive timeouts; an idle keep-alive connection does not', async (t) => {
  const tp = await startTestPlatform(t, { listen: true, env: SMALL });
  // Both ways the platform streams SSE: written on the raw response (chat), and a stream handed to hapi (GraphQL subscriptions).
  tp.platform.server.route({
    method: 'GET', path: '/test/sse-raw', options: { auth: false, plugins: { platform: { tenant: 'none' } } },
    handler: (request, h) => {
      const res = request.raw.res;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      let n = 0;
      const timer = setInterval(() => {
        res.write(`data: ${n++}\n\n`);
        if (n === 15) {
          clearInterval(timer);
          res.end();
        }
      }, 300);
      res.once('close', () => clearInterval(timer));
      return h.abandon;
    },
  });
  const { PassThrough } = await import('node:stream');
  tp.platform.server.route({
    method: 'GET', path: '/test/sse-stream', options: { auth: false, plugins: { platform: { tenant: 'none' } } },
    handler: (_request, h) => {
      const stream = new PassThrough();
      let n = 0;
      const timer = setInterval(() => {
        stream.write(`data: ${n++}\n\n`);
        if (n === 15) {
          clearInterval(timer);
          stream.end();
        }
      }, 300);
      stream.once('close', () => clearInterval(timer));
      return h.response(stream).type('text/event-stream').header('content-encoding', 'identity');
    },
  });

  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  for (const path of ['/test/sse-raw', '/test/sse-stream']) {
    const started = Date.now();
    const body = await new Promise<string>((resolve, reject) => {
      http.get(tp.url(path), { agent }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve(text));
        res.on('error', reject);
      }).on('error', reject);
    });
    t.equal(body.match(/^data: \d+$/gm)?.length, 15, `${path}: every event arrived`);
    t.ok(Date.now() - started >= 4000, `${path}: the stream lasted past the 1 s head and keep-alive and the 3 s request timeouts`);
  }
  t.equal(await connections(tp), 1, 'the keep-alive connection is still open right after the streams');
  await until(async () => (await connections(tp)) === 0, 'the idle keep-alive connection to close', 10_000);
});

t.test('a body that arrives after the head timeout, within the request timeout, is served', async (t) => {
  const tp = await startTestPlatform(t, { listen: true, env: SMALL });
  tp.platform.server.route({
    method: 'POST', path: '/test/echo', options: { auth: false, plugins: { platform: { tenant: 'none' } } },
    handler: (request) => request.payload as object,
  });
  const body = JSON.stringify({ text: 'x'.repeat(30) });
  const client = rawClient(tp, `POST /test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
  await until(async () => client.state.connected, 'connected');
  for (let i = 0; i < body.length; i += 10) {
    await new Promise((resolve) => setTimeout(resolve, 400));
    client.socket.write(body.slice(i, i + 10));
  }
  await until(async () => client.state.ended, 'the answer');
  t.match(client.state.data, /^HTTP\/1\.1 200/, 'served: the head timeout does not time the body');
  t.ok(client.state.data.endsWith(body));
  client.socket.destroy();
});
