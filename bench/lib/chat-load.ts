// The benchmark's SSE clients (a child process): opens one stream per target
// at once and records, per stream, the time to the first byte and, per text
// token, now − the time the model server wrote it; and the time to the first token. Targets are either the
// model server itself (the baseline) or the platform's chat endpoint.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

interface Job {
  mode: 'direct' | 'relay';
  url: string;
  headers: Record<string, string>;
  paths: string[];
  body: string[];
}

// No keep-alive: a socket idle between phases may be closed by the server as it is reused.
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const now = () => performance.timeOrigin + performance.now();

interface Out { ttfb: number[]; ttft: number[]; token: number[]; tokenAt: number[]; firstAt: number[]; errors: number; tokens: number }

function stream(job: Job, i: number, out: Out): Promise<void> {
  return new Promise((resolve) => {
    const started = now();
    const request = http.request(`${job.url}${job.paths[i]}`, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...job.headers } }, (response) => {
      let firstToken = true;
      let buffer = '';
      out.ttfb.push(now() - started);
      response.setEncoding('utf8');
      if (response.statusCode !== 200) {
        out.errors++;
        if (out.errors <= 3) process.stderr.write(`stream ${i}: HTTP ${response.statusCode}\n`);
      }
      response.on('data', (chunk: string) => {
        const at = now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const line = event.split('\n').find((l) => l.startsWith('data: '));
          if (!line || line === 'data: [DONE]') continue;
          const data = JSON.parse(line.slice(6));
          const text = job.mode === 'relay' ? (data.type === 'text' ? data.delta : undefined) : data.choices?.[0]?.delta?.content;
          if (!text) continue;
          if (firstToken) {
            firstToken = false;
            out.ttft.push(at - started);
            out.firstAt.push(at);
          }
          for (const stamp of String(text).trim().split(/\s+/)) {
            out.token.push(at - Number(stamp));
            out.tokenAt.push(at);
            out.tokens++;
          }
        }
      });
      response.on('end', resolve);
      response.on('error', (err) => {
        out.errors++;
        if (out.errors <= 3) process.stderr.write(`stream ${i}: ${err.message}\n`);
        resolve();
      });
    });
    request.on('error', (err) => {
      out.errors++;
      if (out.errors <= 3) process.stderr.write(`stream ${i}: ${err.message}\n`);
      resolve();
    });
    request.end(job.body[i]);
  });
}

process.on('message', async (job: Job) => {
  const out: Out = { ttfb: [], ttft: [], token: [], tokenAt: [], firstAt: [], errors: 0, tokens: 0 };
  const started = now();
  await Promise.all(job.paths.map((_, i) => stream(job, i, out)));
  // Steady state: tokens that arrived once every stream had its first token
  // (all streams open at once), before the first stream ended.
  const allOpen = Math.max(...out.firstAt);
  const steady = out.token.filter((_, k) => out.tokenAt[k] >= allOpen);
  process.send!({ ttfb: out.ttfb, ttft: out.ttft, token: out.token, steady, errors: out.errors, tokens: out.tokens, seconds: (now() - started) / 1000 });
});
process.on('disconnect', () => process.exit(0));
