// The widget's files under /embed/v1/: entries
// revalidated, hashed chunks immutable, `?v=` accepted, content types, CORS
// `*`, brotli when accepted, ETag revalidation, nothing else of the folder.
import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { embedFixture } from './helpers.ts';

const DIST = path.resolve('plugins/embed/widget/dist');
if (!existsSync(path.join(DIST, 'platform-chat.ce.js'))) execFileSync(process.execPath, ['scripts/build-widget.ts', '--quiet'], { stdio: 'inherit' });

const f = await embedFixture(t);
const get = (url: string, headers: Record<string, string> = {}) => f.tp.request({ url, headers });
const ENTRY = 'no-cache, must-revalidate';
const IMMUTABLE = 'public, max-age=31536000, immutable';

t.test('entry files: content type, revalidation, CORS *, ?v=', async (t) => {
  for (const [file, type] of [['platform-chat.ce.js', 'text/javascript'], ['platform-chat.es.js', 'text/javascript'], ['platform-chat.react.js', 'text/javascript'], ['platform-chat.vue.js', 'text/javascript'], ['platform-chat.css', 'text/css']]) {
    const res = await get(`/embed/v1/${file}?v=0.3.0`, { origin: 'https://anywhere.example' });
    t.equal(res.status, 200, file);
    t.match(res.headers['content-type'], new RegExp(`^${type}; charset=utf-8`), `${file} content type`);
    t.equal(res.headers['cache-control'], ENTRY, `${file} revalidates`);
    t.equal(res.headers['access-control-allow-origin'], '*', `${file} CORS *`);
    t.equal(Buffer.from(res.body as string).length > 0, true);
  }
  t.equal((await get('/embed/v1/platform-chat.ce.js')).status, 200, 'without ?v= too');
  t.equal((await get('/embed/v1/platform-chat.ce.js?v=0.3.0%20<x>')).status, 400, 'a malformed v is a 400');
});

t.test('hashed chunks: immutable for a year; every chunk an entry imports is served', async (t) => {
  const entry = readFileSync(path.join(DIST, 'platform-chat.ce.js'), 'utf8');
  const imported = [...entry.matchAll(/["']\.\/(chunks\/[^"']+\.js)["']/g)].map((m) => m[1]!);
  t.ok(imported.length > 0, 'the entry imports chunks');
  for (const chunk of readdirSync(path.join(DIST, 'chunks')).filter((n) => n.endsWith('.js'))) {
    const res = await get(`/embed/v1/chunks/${chunk}?v=0.3.0`);
    t.equal(res.status, 200, chunk);
    t.equal(res.headers['cache-control'], IMMUTABLE, `${chunk} immutable`);
    t.match(chunk, /-[A-Z0-9]{8}\.js$/, 'hashed name');
  }
  for (const chunk of imported) t.equal((await get(`/embed/v1/${chunk}`)).status, 200, `${chunk} (imported by the entry)`);
});

t.test('brotli when accepted, ETag revalidation', async (t) => {
  const plain = await f.tp.platform.server.inject({ url: '/embed/v1/platform-chat.css', headers: { 'accept-encoding': 'identity' } });
  const br = await f.tp.platform.server.inject({ url: '/embed/v1/platform-chat.css', headers: { 'accept-encoding': 'gzip, br' } });
  t.equal(br.headers['content-encoding'], 'br');
  t.equal(brotliDecompressSync(br.rawPayload).toString(), plain.payload, 'the same file');
  t.ok(br.rawPayload.length < plain.rawPayload.length, 'smaller');
  t.match(String(br.headers.vary), /accept-encoding/i);
  const again = await f.tp.platform.server.inject({ url: '/embed/v1/platform-chat.css', headers: { 'accept-encoding': 'identity', 'if-none-match': String(plain.headers.etag) } });
  t.equal(again.statusCode, 304, 'an unchanged entry revalidates to 304');
});

t.test('nothing else is served', async (t) => {
  for (const url of ['/embed/v1/../package.json', '/embed/v1/chunks/../../src/element.ts', '/embed/v1/platform-chat.ce.js.br', '/embed/v1/chunks/nope.js', '/embed/v1/index.html']) {
    const res = await get(url);
    t.ok(res.status === 404 || res.status === 400, `${url}: ${res.status}`);
  }
});
