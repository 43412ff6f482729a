// The benchmark's model server (a child process, so it does not share the
// platform's event loop): OpenAI-compatible SSE, TOKENS chunks INTERVAL_MS
// apart; each chunk's text is the wall-clock time it was sent (ms, 3
// decimals), so a reader computes each token's delivery latency.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';

const TOKENS = Number(process.env.TOKENS ?? 40);
const INTERVAL_MS = Number(process.env.INTERVAL_MS ?? 50);
const now = () => (performance.timeOrigin + performance.now()).toFixed(3);

const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    let sent = 0;
    const timer = setInterval(() => {
      if (sent === TOKENS) {
        clearInterval(timer);
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
        res.end('data: [DONE]\n\n');
        return;
      }
      sent++;
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: `${now()} ` }, finish_reason: null }] })}\n\n`);
    }, INTERVAL_MS);
    res.on('close', () => clearInterval(timer));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
process.on('disconnect', () => process.exit(0));
