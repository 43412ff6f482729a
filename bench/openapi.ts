// OpenAPI benchmark: the document is built once when the server starts; this
// measures that build (and the whole start), then GET /docs/openapi.json over
// real HTTP: the first request after start (after one to /health, which
// pays for the HTTP client's first use) and the median of the next ones
// (gzip, as browsers ask, and identity), and a revalidation with the ETag
// (304). The baseline, hapi-swagger rebuilding a Swagger 2.0 document on
// every request, is gone from the code: its figures, recorded on this machine
// before the change, are in bench/README.md.
// Run with `npm run bench:openapi` (a throwaway Postgres is started).
import { randomBytes } from 'node:crypto';
import { createPlatform } from '../core/boot.ts';
import { loadConfig } from '../core/config.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 50);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timed(url: string, headers: Record<string, string>): Promise<{ ms: number; status: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status, bytes: Number(response.headers.get('content-length') ?? 0) };
}

if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run through `npm run bench:openapi`');
const config = loadConfig({ ...process.env, ADMIN_TOKEN: `adm_${randomBytes(16).toString('hex')}`, PLATFORM_MASTER_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent' });
const platform = await createPlatform({ config, port: 0, host: '127.0.0.1', announceAdminToken: () => {}, logStream: { write() {} } });
const startAt = performance.now();
await platform.start();
const startMs = performance.now() - startAt;
const url = `${platform.server.info.uri}/docs/openapi.json`;
try {
  // The first request of the process (to /health) pays for the HTTP client's and the server's first use, not the document's.
  const firstOfProcess = await timed(`${platform.server.info.uri}/health`, {});
  if (process.env.BENCH_SETTLE_MS) await new Promise((resolve) => setTimeout(resolve, Number(process.env.BENCH_SETTLE_MS)));
  const first = await timed(url, { 'accept-encoding': 'gzip' });
  const gzip: number[] = [];
  const identity: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    gzip.push((await timed(url, { 'accept-encoding': 'gzip' })).ms);
    identity.push((await timed(url, { 'accept-encoding': 'identity' })).ms);
  }
  const plain = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
  const etag = plain.headers.get('etag') ?? '';
  const size = (await plain.text()).length;
  const revalidated: number[] = [];
  let notModified = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const result = await timed(url, { 'accept-encoding': 'identity', 'if-none-match': etag });
    revalidated.push(result.ms);
    if (result.status === 304) notModified++;
  }
  const f = (ms: number) => ms.toFixed(1);
  console.log(`document: ${size} bytes (${first.bytes} gzipped), built at start in ${f(platform.server.app.openApiBuildMs ?? NaN)} ms; server start ${f(startMs)} ms`);
  console.log('| Request | ms |');
  console.log('|---|---|');
  console.log(`| first request of the process (GET /health) | ${f(firstOfProcess.ms)} |`);
  console.log(`| first GET of the document after start (gzip) | ${f(first.ms)} |`);
  console.log(`| median GET, gzip (${REQUESTS}) | ${f(median(gzip))} |`);
  console.log(`| median GET, identity (${REQUESTS}) | ${f(median(identity))} |`);
  console.log(`| median GET with If-None-Match (${notModified}/${REQUESTS} answered 304) | ${f(median(revalidated))} |`);
} finally {
  await platform.stop();
}
